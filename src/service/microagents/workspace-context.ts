import type { CustomSecretInfo } from '../../shared/api/secrets';
import { renderExtraInfo, triggeredKnowledge } from './knowledge-match';
import type { Microagent } from './microagent';
import { recallExtras, type RecallContent } from './recall-extras';
import { repositoryInstructions } from './repository-instructions';

export interface AppPort {
  /** The port an app listens on inside the sandbox. */
  port: number;
  /** Where the user opens it, e.g. `http://localhost:51234`. */
  url: string;
}

export interface WorkspaceContextInput {
  /** The repository cloned for the conversation, or null when there is none. */
  repository: { name: string; directory: string; branch: string } | null;
  microagents: Microagent[];
  workingDir: string;
  /** The app ports in order: the first is APP_PORT_1, the second APP_PORT_2. */
  appPorts: AppPort[];
  /** Shown to the agent when the workspace setup went wrong; null when there is nothing to say. */
  setupNote: string | null;
  now: Date;
  /** Names and descriptions only: the model never sees a value. */
  customSecrets: CustomSecretInfo[];
  conversationInstructions: string | null;
  /** The first user message: the knowledge microagents it triggers are recalled with the context. */
  firstMessage: string;
}

const tagged = (tag: string, body: string) => `<${tag}>\n${body}\n</${tag}>`;

function repositoryInfo({ name, directory, branch }: NonNullable<WorkspaceContextInput['repository']>) {
  return tagged(
    'REPOSITORY_INFO',
    `At the user's request, the repository ${name} was cloned into ${directory}.\n` +
      `It is checked out on the branch "${branch}". Stay on this branch unless the user asks for another one.\n` +
      'Never commit directly to main or master: if you are on one of them, create a new branch before your first commit.',
  );
}

function runtimeInformation(input: WorkspaceContextInput, date: string): string {
  const parts = [`The working directory is ${input.workingDir}. Work there unless the user says otherwise.`];
  if (input.appPorts.length > 0) {
    const ports = input.appPorts.map(
      ({ port, url }, index) => `* ${port} ($APP_PORT_${index + 1}): bind 0.0.0.0; the user opens ${url}`,
    );
    parts.push(
      [
        'Ports for servers the user should open in a browser:',
        ...ports,
        'Let these servers accept any host name and allow being embedded in an iframe.',
      ].join('\n'),
    );
  }
  if (input.setupNote) parts.push(input.setupNote);
  parts.push(`Today's date is ${date} (UTC).`);
  if (input.customSecrets.length > 0) {
    const secrets = input.customSecrets.map(({ name, description }) =>
      description ? `* $${name}: ${description}` : `* $${name}`,
    );
    parts.push(
      tagged(
        'CUSTOM_SECRETS',
        [
          'These environment variables are set in every command. Their values are hidden from you; use them by name:',
          ...secrets,
        ].join('\n'),
      ),
    );
  }
  return tagged('RUNTIME_INFORMATION', parts.join('\n\n'));
}

/**
 * The workspace context recalled with the first user message, as one user message: REPOSITORY_INFO,
 * REPOSITORY_INSTRUCTIONS, RUNTIME_INFORMATION, CONVERSATION_INSTRUCTIONS and one EXTRA_INFO per knowledge
 * microagent the message triggers, with the matching `recall` observation extras.
 */
export function renderWorkspaceContext(input: WorkspaceContextInput): RecallContent {
  const date = input.now.toISOString().slice(0, 10);
  const instructions = repositoryInstructions(input.microagents).text;
  const conversationInstructions = input.conversationInstructions?.trim() ?? '';
  const knowledge = triggeredKnowledge(input.firstMessage, input.microagents, new Set());

  const sections = [
    input.repository && repositoryInfo(input.repository),
    instructions && tagged('REPOSITORY_INSTRUCTIONS', instructions),
    runtimeInformation(input, date),
    conversationInstructions && tagged('CONVERSATION_INSTRUCTIONS', conversationInstructions),
    renderExtraInfo(knowledge),
  ];
  return {
    content: sections.filter(Boolean).join('\n\n'),
    extras: recallExtras('workspace_context', {
      repo_name: input.repository?.name ?? '',
      repo_directory: input.repository?.directory ?? '',
      repo_branch: input.repository?.branch ?? '',
      repo_instructions: instructions,
      runtime_hosts: Object.fromEntries(input.appPorts.map(({ port, url }) => [url, port])),
      additional_agent_instructions: input.setupNote ?? '',
      date,
      custom_secrets_descriptions: Object.fromEntries(
        input.customSecrets.map(({ name, description }) => [name, description ?? '']),
      ),
      conversation_instructions: conversationInstructions,
      working_dir: input.workingDir,
      microagent_knowledge: knowledge,
    }),
  };
}
