import { describe, expect, it } from 'vitest';
import { REPOSITORY_INSTRUCTIONS_MAX_CHARS } from './repository-instructions';
import { microagent } from '../../../test/support/microagents';
import { renderWorkspaceContext, type WorkspaceContextInput } from './workspace-context';

const base: WorkspaceContextInput = {
  repository: {
    name: 'acme/shop',
    directory: '/workspace/project/shop',
    branch: 'dockhand-workspace-ab12cd34',
  },
  microagents: [
    microagent('repo', 'Run `make test`.'),
    microagent('docker', 'Docker notes.', ['docker']),
    microagent('kafka', 'Kafka notes.', ['kafka']),
    microagent('agents', 'Use tabs.'),
  ],
  workingDir: '/workspace/project',
  appPorts: [
    { port: 8011, url: 'http://localhost:51001' },
    { port: 8012, url: 'http://localhost:51002' },
  ],
  setupNote: '.openhands/setup.sh failed with exit code 2; see /tmp/dockhand/setup.log.',
  now: new Date('2025-11-28T23:59:00Z'),
  customSecrets: [
    { name: 'STRIPE_KEY', description: 'Stripe test key' },
    { name: 'NPM_TOKEN', description: null },
  ],
  conversationInstructions: 'Open the PR against develop.',
  firstMessage: 'Fix the DOCKER build',
};

describe('renderWorkspaceContext', () => {
  it('renders every section in order as one text', () => {
    expect(renderWorkspaceContext(base).content).toBe(
      [
        '<REPOSITORY_INFO>',
        "At the user's request, the repository acme/shop was cloned into /workspace/project/shop.",
        'It is checked out on the branch "dockhand-workspace-ab12cd34". Stay on this branch unless the user asks for another one.',
        'Never commit directly to main or master: if you are on one of them, create a new branch before your first commit.',
        '</REPOSITORY_INFO>',
        '',
        '<REPOSITORY_INSTRUCTIONS>',
        'Run `make test`.',
        '',
        'Use tabs.',
        '</REPOSITORY_INSTRUCTIONS>',
        '',
        '<RUNTIME_INFORMATION>',
        'The working directory is /workspace/project. Work there unless the user says otherwise.',
        '',
        'Ports for servers the user should open in a browser:',
        '* 8011 ($APP_PORT_1): bind 0.0.0.0; the user opens http://localhost:51001',
        '* 8012 ($APP_PORT_2): bind 0.0.0.0; the user opens http://localhost:51002',
        'Let these servers accept any host name and allow being embedded in an iframe.',
        '',
        '.openhands/setup.sh failed with exit code 2; see /tmp/dockhand/setup.log.',
        '',
        "Today's date is 2025-11-28 (UTC).",
        '',
        '<CUSTOM_SECRETS>',
        'These environment variables are set in every command. Their values are hidden from you; use them by name:',
        '* $STRIPE_KEY: Stripe test key',
        '* $NPM_TOKEN',
        '</CUSTOM_SECRETS>',
        '</RUNTIME_INFORMATION>',
        '',
        '<CONVERSATION_INSTRUCTIONS>',
        'Open the PR against develop.',
        '</CONVERSATION_INSTRUCTIONS>',
        '',
        '<EXTRA_INFO>',
        'The following was added because the message mentions "docker". It may be irrelevant to the request.',
        '',
        'Docker notes.',
        '</EXTRA_INFO>',
      ].join('\n'),
    );
  });

  it('gives every recall extra, with secret names and descriptions only', () => {
    expect(renderWorkspaceContext(base).extras).toEqual({
      recall_type: 'workspace_context',
      repo_name: 'acme/shop',
      repo_directory: '/workspace/project/shop',
      repo_branch: 'dockhand-workspace-ab12cd34',
      repo_instructions: 'Run `make test`.\n\nUse tabs.',
      runtime_hosts: { 'http://localhost:51001': 8011, 'http://localhost:51002': 8012 },
      additional_agent_instructions:
        '.openhands/setup.sh failed with exit code 2; see /tmp/dockhand/setup.log.',
      date: '2025-11-28',
      custom_secrets_descriptions: { STRIPE_KEY: 'Stripe test key', NPM_TOKEN: '' },
      conversation_instructions: 'Open the PR against develop.',
      working_dir: '/workspace/project',
      microagent_knowledge: [{ name: 'docker', trigger: 'docker', content: 'Docker notes.' }],
    });
  });

  it('leaves out what is not there', () => {
    const { content, extras } = renderWorkspaceContext({
      ...base,
      repository: null,
      microagents: [microagent('docker', 'Docker notes.', ['docker'])],
      appPorts: [],
      setupNote: null,
      customSecrets: [],
      conversationInstructions: '  ',
      firstMessage: 'hello',
    });
    expect(content).toBe(
      [
        '<RUNTIME_INFORMATION>',
        'The working directory is /workspace/project. Work there unless the user says otherwise.',
        '',
        "Today's date is 2025-11-28 (UTC).",
        '</RUNTIME_INFORMATION>',
      ].join('\n'),
    );
    expect(extras).toMatchObject({
      repo_name: '',
      repo_instructions: '',
      runtime_hosts: {},
      custom_secrets_descriptions: {},
      conversation_instructions: '',
      microagent_knowledge: [],
    });
  });

  it('caps the repository instructions', () => {
    const long = microagent('repo', 'x'.repeat(REPOSITORY_INSTRUCTIONS_MAX_CHARS + 500));
    const { content, extras } = renderWorkspaceContext({ ...base, microagents: [long] });
    expect(extras.repo_instructions).toHaveLength(REPOSITORY_INSTRUCTIONS_MAX_CHARS);
    expect(extras.repo_instructions.endsWith('\n[Repository instructions cut at 32000 characters.]')).toBe(
      true,
    );
    expect(content).toContain(
      `<REPOSITORY_INSTRUCTIONS>\n${extras.repo_instructions}\n</REPOSITORY_INSTRUCTIONS>`,
    );
  });
});
