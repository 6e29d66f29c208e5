import { describe, expect, it } from 'vitest';
import type { NewEvent, V0Event } from '../../shared/api/events';
import type { Microagent } from '../microagents/microagent';
import { consentedServers, workspaceRecall, type RecallSources } from './recall-step';
import type { RepositoryCode } from './repository-code';

function microagent(name: string, extra: Partial<Microagent> = {}): Microagent {
  return {
    name,
    type: 'knowledge',
    content: `${name} knowledge`,
    triggers: [name],
    inputs: [],
    tools: [],
    source: `builtin:${name}.md`,
    mcpStdioServers: [],
    ...extra,
  };
}

const sources: RecallSources = {
  repository: { name: 'acme/app', branch: null },
  repoDir: '/workspace/project/app',
  microagents: [microagent('docker'), microagent('kubernetes')],
  setupNote: 'The setup script failed.',
  customSecrets: [{ name: 'API_TOKEN', description: 'for the staging API' }],
  conversationInstructions: 'Be brief.',
  appPorts: () => [{ port: 12000, url: 'http://localhost:51234' }],
  now: () => new Date('2026-11-28T09:00:00Z'),
};

describe('workspaceRecall', () => {
  it('recalls the workspace with the first message: repository, ports, setup note, secrets, instructions', () => {
    const recall = workspaceRecall(sources).workspace('Fix the docker build');
    expect(recall.content).toContain('the repository acme/app was cloned into /workspace/project/app');
    expect(recall.content).toContain('It is checked out on the branch "".');
    expect(recall.content).toContain(
      '* 12000 ($APP_PORT_1): bind 0.0.0.0; the user opens http://localhost:51234',
    );
    expect(recall.content).toContain('The setup script failed.');
    expect(recall.content).toContain("Today's date is 2026-11-28 (UTC).");
    expect(recall.content).toContain('* $API_TOKEN: for the staging API');
    expect(recall.content).toContain('<CONVERSATION_INSTRUCTIONS>\nBe brief.\n</CONVERSATION_INSTRUCTIONS>');
    expect(recall.content).toContain('docker knowledge');
    expect(recall.content).not.toContain('kubernetes knowledge');
    expect(recall.extras).toMatchObject({ repo_name: 'acme/app', working_dir: '/workspace/project/app' });
  });

  it('looks the app ports up when the first message comes, not before', () => {
    let port = 1;
    const recall = workspaceRecall({
      ...sources,
      appPorts: () => [{ port, url: `http://localhost:${port}` }],
    });
    port = 2;
    expect(recall.workspace('hi').content).toContain('* 2 ($APP_PORT_1)');
  });

  it('says nothing of a repository when there is none', () => {
    const recall = workspaceRecall({ ...sources, repository: null }).workspace('hi');
    expect(recall.content).not.toContain('REPOSITORY_INFO');
    expect(recall.content).toContain('The working directory is /workspace/project/app.');
  });

  it('recalls triggered knowledge later, once per microagent in view', () => {
    const { knowledge } = workspaceRecall(sources);
    expect(knowledge('nothing to see', [])).toBeNull();
    const recalled = knowledge('and kubernetes?', []);
    expect(recalled?.content).toContain('kubernetes knowledge');
    const inView = { id: 4, observation: 'recall', extras: recalled?.extras } as unknown as V0Event;
    expect(knowledge('kubernetes again', [inView])).toBeNull();
  });
});

describe('consentedServers', () => {
  const withServers = [
    microagent('a', {
      mcpStdioServers: [
        { name: 'fs', command: 'npx', args: ['-y', 'server fs'], env: { ROOT: '/x', TOKEN: 't' } },
        { name: 'git', command: 'uvx', args: ['mcp-git'], env: {} },
      ],
    }),
  ];

  it('asks about each server in turn and answers the allowed ones', async () => {
    const asked: RepositoryCode[] = [];
    const recorded: NewEvent[] = [];
    const allowed = await consentedServers(withServers, {
      approve: async (code) => {
        asked.push(code);
        return code.name === 'fs' ? null : 12;
      },
      record: (event) => void recorded.push(event),
    });
    expect(asked).toEqual([
      {
        kind: 'mcp_server',
        name: 'fs',
        content: "npx -y 'server fs'\n# environment: ROOT, TOKEN",
        command: "npx -y 'server fs'",
      },
      { kind: 'mcp_server', name: 'git', content: 'uvx mcp-git', command: 'uvx mcp-git' },
    ]);
    expect(allowed.map((server) => server.name)).toEqual(['git']);
    expect(recorded).toMatchObject([
      { observation: 'run', content: 'MCP server git starts with the conversation.', cause: 12 },
    ]);
  });
});
