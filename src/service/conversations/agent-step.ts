import type { AgentLoopConfig } from '../agent/agent-loop';
import { createAgent, type Agent } from '../agent/create-agent';
import { supportsVision } from '../agent/llm/model-table';
import { BUILTIN_TOOLS } from '../agent/tools/registry';
import type { McpToolset } from '../mcp/mcp-toolset';
import { withRequestMcpKeys } from '../mcp/request-mcp-keys';
import type { McpStdioServer, Microagent } from '../microagents/microagent';
import type { AppPort } from '../microagents/workspace-context';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
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

/** The last start step: the agent, on the workspace, with what it recalls and the MCP tools. */
export function buildAgent(
  start: StartContext,
  inputs: {
    workspace: Workspace;
    secretEnv: Record<string, string>;
    apiKey: string | null;
    recall: AgentLoopConfig['recall'];
    mcp: McpToolset;
  },
): Agent {
  const { ctx, record } = start;
  const { workspace, mcp } = inputs;
  return createAgent(ctx, {
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
}

/** The app ports: where apps listen in the sandbox, and the URL the user opens (the published one if any). */
function appPorts(start: StartContext, target: SandboxWorkspace): AppPort[] {
  const exposed = start.ctx.sandboxes.find(target.sandboxId)?.exposed_urls ?? [];
  return (['WORKER_1', 'WORKER_2'] as const).map((name) => {
    const port = target.appPorts[name];
    return { port, url: exposed.find((u) => u.name === name)?.url ?? `http://localhost:${port}` };
  });
}
