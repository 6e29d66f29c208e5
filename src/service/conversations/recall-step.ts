import type { NewEvent } from '../../shared/api/events';
import type { CustomSecretInfo } from '../../shared/api/secrets';
import type { AgentLoopConfig } from '../agent/agent-loop';
import { knowledgeInView, recallKnowledge } from '../microagents/knowledge-recall';
import { loadMicroagents, userMicroagentDirs } from '../microagents/load-microagents';
import type { McpStdioServer, Microagent } from '../microagents/microagent';
import { renderWorkspaceContext, type AppPort } from '../microagents/workspace-context';
import type { SandboxFiles } from '../sandbox/files/sandbox-files';
import { commandLineOf, hiddenObservation, type RepositoryCode } from './repository-code';

export interface MicroagentStepDeps {
  files: SandboxFiles;
  repoDir: string;
  /** The user's say over repository code: the id of the action it runs under, or null when refused. */
  approve(code: RepositoryCode): Promise<number | null>;
  record(event: NewEvent): void;
  /** A microagent that could not be read: reported, never fatal. */
  warn(message: string): void;
}

export interface LoadedMicroagents {
  microagents: Microagent[];
  /** The microagents' MCP stdio servers the user lets start. */
  servers: McpStdioServer[];
}

/** The microagents of the repository (or workspace), the user's folders and the built-ins, and their servers. */
export async function loadConversationMicroagents(deps: MicroagentStepDeps): Promise<LoadedMicroagents> {
  const { microagents, warnings } = await loadMicroagents({
    files: deps.files,
    repoDir: deps.repoDir,
    userDirs: userMicroagentDirs(),
  });
  for (const warning of warnings) deps.warn(warning);
  return { microagents, servers: await consentedServers(microagents, deps) };
}

/** The microagents' MCP stdio servers the user's say lets start (asked one at a time, answered once allowed). */
export async function consentedServers(
  microagents: Microagent[],
  deps: Pick<MicroagentStepDeps, 'approve' | 'record'>,
): Promise<McpStdioServer[]> {
  const allowed: McpStdioServer[] = [];
  for (const server of microagents.flatMap((m) => m.mcpStdioServers)) {
    const commandLine = commandLineOf([server.command, ...(server.args ?? [])]);
    const env = Object.keys(server.env ?? {});
    const actionId = await deps.approve({
      kind: 'mcp_server',
      name: server.name,
      content: env.length ? `${commandLine}\n# environment: ${env.join(', ')}` : commandLine,
      command: commandLine,
    });
    if (actionId === null) continue;
    allowed.push(server);
    deps.record(
      hiddenObservation('run', `MCP server ${server.name} starts with the conversation.`, actionId),
    );
  }
  return allowed;
}

export interface RecallSources {
  /** The repository the conversation was started with (null for none) and where it is. */
  repository: { name: string; branch: string | null } | null;
  repoDir: string;
  microagents: Microagent[];
  /** What the setup script left for the agent to know, or null. */
  setupNote: string | null;
  customSecrets: CustomSecretInfo[];
  conversationInstructions: string | null;
  /** The app ports, looked up when the first message is recalled. */
  appPorts(): AppPort[];
  now(): Date;
}

/** What the agent recalls: the workspace context with its first message, and knowledge on keywords later. */
export function workspaceRecall(sources: RecallSources): AgentLoopConfig['recall'] {
  const repository = sources.repository
    ? { name: sources.repository.name, directory: sources.repoDir, branch: sources.repository.branch ?? '' }
    : null;
  return {
    workspace: (firstMessage) =>
      renderWorkspaceContext({
        repository,
        microagents: sources.microagents,
        workingDir: sources.repoDir,
        appPorts: sources.appPorts(),
        setupNote: sources.setupNote,
        now: sources.now(),
        customSecrets: sources.customSecrets,
        conversationInstructions: sources.conversationInstructions,
        firstMessage,
      }),
    knowledge: (message, history) => recallKnowledge(message, sources.microagents, knowledgeInView(history)),
  };
}
