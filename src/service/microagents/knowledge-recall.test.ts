import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../shared/api/events';
import { knowledgeInView, recallKnowledge } from './knowledge-recall';
import { parseMicroagent } from './parse-microagent';
import { microagent } from '../../../test/support/microagents';

const microagents = [
  microagent('repo', 'Always on.'),
  microagent('docker', 'Docker notes.', ['docker', 'container']),
  microagent('npm', 'npm notes.', ['npm']),
  parseMicroagent({
    text: '---\ninputs: [{name: VERSION, description: v}]\n---\nRelease ${VERSION}.',
    defaultName: 'release',
    source: '/r.md',
  }),
];

describe('recallKnowledge', () => {
  it('recalls each triggered microagent once, matching case-insensitive substrings', () => {
    expect(recallKnowledge('Put it in a CONTAINER; docker too. Use NPM.', microagents, new Set())).toEqual({
      content: [
        '<EXTRA_INFO>',
        'The following was added because the message mentions "docker". It may be irrelevant to the request.',
        '',
        'Docker notes.',
        '</EXTRA_INFO>',
        '',
        '<EXTRA_INFO>',
        'The following was added because the message mentions "npm". It may be irrelevant to the request.',
        '',
        'npm notes.',
        '</EXTRA_INFO>',
      ].join('\n'),
      extras: {
        recall_type: 'knowledge',
        repo_name: '',
        repo_directory: '',
        repo_branch: '',
        repo_instructions: '',
        runtime_hosts: {},
        additional_agent_instructions: '',
        date: '',
        custom_secrets_descriptions: {},
        conversation_instructions: '',
        working_dir: '',
        microagent_knowledge: [
          { name: 'docker', trigger: 'docker', content: 'Docker notes.' },
          { name: 'npm', trigger: 'npm', content: 'npm notes.' },
        ],
      },
    });
  });

  it('matches a capitalised trigger in a lower-case message and reports the trigger as written', () => {
    const kafka = microagent('kafka', 'Kafka notes.', ['Consumer Group']);
    expect(
      recallKnowledge('the consumer group lags', [kafka], new Set())?.extras.microagent_knowledge,
    ).toEqual([{ name: 'kafka', trigger: 'Consumer Group', content: 'Kafka notes.' }]);
  });

  it('does not repeat microagents already in view', () => {
    const recalled = recallKnowledge('docker and npm', microagents, new Set(['docker']));
    expect(recalled?.extras.microagent_knowledge.map((k) => k.name)).toEqual(['npm']);
  });

  it('recalls a task by /<name>, with its placeholders and the missing-inputs sentence', () => {
    const recalled = recallKnowledge('/release VERSION=2.1', microagents, new Set());
    expect(recalled?.extras.microagent_knowledge).toEqual([
      {
        name: 'release',
        trigger: '/release',
        content:
          "Release ${VERSION}.\n\nIf the user didn't provide any of these variables, ask the user to provide them first.",
      },
    ]);
  });

  it('returns null when nothing new matches; repo microagents never match', () => {
    expect(recallKnowledge('always on repo', microagents, new Set())).toBeNull();
    expect(recallKnowledge('docker', microagents, new Set(['docker']))).toBeNull();
  });
});

describe('knowledgeInView', () => {
  it('collects the names recalled by the recall observations among the events', () => {
    const event = (fields: Partial<V0Event>): V0Event => ({
      id: 1,
      timestamp: '2025-11-28T00:00:00Z',
      source: 'environment',
      message: '',
      ...fields,
    });
    const knowledge = (...names: string[]) => names.map((name) => ({ name, trigger: name, content: '' }));
    expect(
      knowledgeInView([
        event({ observation: 'recall', extras: { microagent_knowledge: knowledge('docker') } }),
        event({
          observation: 'recall',
          extras: { recall_type: 'knowledge', microagent_knowledge: knowledge('npm') },
        }),
        event({ observation: 'recall', extras: {} }),
        event({ observation: 'run', extras: { microagent_knowledge: knowledge('other') } }),
      ]),
    ).toEqual(new Set(['docker', 'npm']));
  });
});
