import type { AgentLoop, AgentLoopConfig } from '../agent/agent-loop';
import { createAgent } from '../agent/create-agent';
import { supportsVision } from '../agent/llm/model-table';
import { BUILTIN_TOOLS } from '../agent/tools/registry';
import type { McpToolset } from '../mcp/mcp-toolset';
import { withRequestMcpKeys } from '../mcp/request-mcp-keys';
import type { McpStdioServer, Microagent } from '../microagents/microagent';
import type { AppPort } from '../microagents/workspace-context';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import type { ConversationAgent } from './conversation-agent';
import { workspaceRecall } from './recall-step';
import type { Workspace } from './sandbox-step';
import { exposedCustomSecrets } from './sandbox-secrets';
import type { StartContext } from './start-context';

/** The model the conversation uses: its own, else the settings'. */
export function conversationModel(start: StartContext): string {
  return start.record.llmModel ?? start.ctx.settings.stored()?.llm_model ?? '';
}

/** MCP servers (steps 8-9): settings, request and microagent servers, in parallel; failures only warn. */
export async function connectMcp(
  start: StartContext,
  { connectConversationMcp }: typeof import('../mcp/conversation-mcp'),
  target: SandboxWorkspace,
  microagentServers: McpStdioServer[],
): Promise<McpToolset> {
  const { ctx, record } = start;
  const stored = record.request.mcp_config;
  const mcp = await connectConversationMcp({
    settings: await ctx.settings.mcpConfig(),
    request: stored ? await withRequestMcpKeys(ctx.secrets, record.id, stored) : null,
    microagents: microagentServers,
    workspace: target,
    builtinNames: BUILTIN_TOOLS.map((tool) => tool.name),
    vision: supportsVision(conversationModel(start)),
    callTimeoutSeconds: ctx.limits.mcpCallTimeoutSeconds,
  });
  for (const warning of mcp.warnings) start.note('connecting_mcp', warning);
  if (start.signal.aborted) {
    await mcp.close();
    start.signal.throwIfAborted();
  }
  return mcp;
}

/** What the agent recalls: the workspace context of its first message, and knowledge on keywords. */
export function recallOf(
  start: StartContext,
  workspace: Workspace,
  repoDir: string,
  microagents: Microagent[],
  setupNote: string | null,
): AgentLoopConfig['recall'] {
  const { ctx, record } = start;
  const { selectedRepository, selectedBranch, request } = record;
  return workspaceRecall({
    repository: selectedRepository ? { name: selectedRepository, branch: selectedBranch } : null,
    repoDir,
    microagents,
    setupNote,
    customSecrets: exposedCustomSecrets(ctx, request),
    conversationInstructions: request.conversation_instructions,
    appPorts: () => appPorts(start, workspace.target),
    now: () => new Date(),
  });
}

/** The conversation's agent as the runtime drives it, whichever it is. */
export interface StartedAgent {
  agent: ConversationAgent;
  /** A title from the first message (one model call; a cut message when it fails). */
  title(message: string): Promise<string | null>;
  /** Step 11: starts the agent's work; answers the message the conversation is named after. */
  begin(first: boolean): string | null;
  /** Ends what the agent runs (its process, for an agent over ACP). */
  close(): Promise<void>;
}

/** The last start step for Dockhand's own agent: its loop, on the workspace, with its recall and MCP tools. */
export function buildAgent(
  start: StartContext,
  inputs: {
    workspace: Workspace;
    secretEnv: Record<string, string>;
    apiKey: string | null;
    recall: AgentLoopConfig['recall'];
    mcp: McpToolset;
  },
): StartedAgent {
  const { ctx, record } = start;
  const { workspace, mcp } = inputs;
  const { loop, title } = createAgent(ctx, {
    conversationId: record.id,
    events: start.events,
    settings: ctx.settings.stored() ?? {},
    model: conversationModel(start),
    apiKey: inputs.apiKey,
    signal: start.signal,
    workspace: {
      shell: workspace.shell,
      files: workspace.editorFiles,
      workingDir: () => workspace.target.workingDir,
    },
    secretNames: Object.keys(inputs.secretEnv),
    recall: inputs.recall,
    mcp,
    interrupt: () => {
      mcp.cancelCalls();
      return workspace.shell.interrupt();
    },
    onStatus: (update) => start.status(update),
    saveState: (state) => ctx.agentStates.save(record.id, state),
  });
  return {
    agent: loop,
    title,
    begin: (first) => beginLoop(start, loop, first),
    close: () => Promise.resolve(),
  };
}

/**
 * Step 11: after a restart the loop goes on from its saved state; else a first start replays `replay_json`
 * or sends the first message. Returns the message the conversation is named after.
 */
function beginLoop(start: StartContext, loop: AgentLoop, first: boolean): string | null {
  if (start.saved) {
    loop.resume(start.saved);
    return null;
  }
  const request = start.record.request;
  const message = first ? request.initial_user_msg : null;
  const initial = message ? { content: message, imageUrls: request.image_urls } : null;
  const opening = first ? request.replay?.[0] : undefined;
  if (opening?.kind === 'message' && request.replay) {
    loop.startReplay(request.replay, initial);
    return opening.content;
  }
  loop.start(initial ?? undefined);
  return message;
}

/** The app ports: where apps listen in the sandbox, and the URL the user opens (the published one if any). */
function appPorts(start: StartContext, target: SandboxWorkspace): AppPort[] {
  const exposed = start.ctx.sandboxes.find(target.sandboxId)?.exposed_urls ?? [];
  return (['WORKER_1', 'WORKER_2'] as const).map((name) => {
    const port = target.appPorts[name];
    return { port, url: exposed.find((u) => u.name === name)?.url ?? `http://localhost:${port}` };
  });
}
