import type { AcpAgentKind } from '../../shared/api/agents';
import { AcpAgent } from '../acp/acp-agent';
import { acpMcpServers } from '../acp/acp-mcp-servers';
import { acpAgent } from '../acp/agent-catalog';
import { lendAgent, type LentAgent } from '../acp/agent-lending';
import { agentModelName, prepareLaunch, sessionModeOf } from '../acp/agent-launch';
import { confirmationSettings } from '../agent/confirmation-policy';
import { generateTitle } from '../agent/title';
import { withRequestMcpKeys } from '../mcp/request-mcp-keys';
import { mergeServers } from '../mcp/server-config';
import type { McpStdioServer } from '../microagents/microagent';
import type { SandboxWorkspace } from '../sandbox/sandbox-workspace';
import { conversationModel, type StartedAgent } from './agent-step';
import type { Workspace } from './sandbox-step';
import type { StartContext } from './start-context';

/** The coding agent a conversation runs over ACP; null for Dockhand's own. */
function acpKind(start: StartContext): AcpAgentKind | null {
  const kind = start.record.agent;
  return kind === 'dockhand' ? null : kind;
}

/**
 * Beside the workspace's set-up: the conversation's coding agent installed on this machine (once; its
 * progress as notes) and lent to the sandbox. Null for Dockhand's own agent.
 */
export async function installAcpAgent(
  start: StartContext,
  target: SandboxWorkspace,
): Promise<LentAgent | null> {
  const kind = acpKind(start);
  if (!kind) return null;
  const installed = await start.ctx.acp.install(kind, (message) =>
    start.note('setting_up_workspace', message),
  );
  start.signal.throwIfAborted();
  return lendAgent(target, installed);
}

/** Whether the conversation runs a coding agent over ACP (which connects its MCP servers itself). */
export function runsAcpAgent(start: StartContext): boolean {
  return acpKind(start) !== null;
}

/**
 * The last start step for a coding agent over ACP: its model pointed at the model gateway with the
 * conversation's placeholder token, Dockhand's MCP servers for its `session/new`, in the repository's
 * folder. Its process starts with the first message.
 */
export async function buildAcpAgent(
  start: StartContext,
  inputs: {
    workspace: Workspace;
    lent: LentAgent;
    apiKey: string | null;
    repoDir: string;
    microagentServers: McpStdioServer[];
  },
): Promise<StartedAgent> {
  const { ctx, record } = start;
  const spec = acpAgent(acpKind(start) as AcpAgentKind);
  const { workspace } = inputs;
  const settings = ctx.settings.stored() ?? {};
  const model = conversationModel(start);
  const endpoint = await ctx.acp.modelEndpoint(record.id, workspace.target.sandboxId);
  const command = await prepareLaunch(
    workspace.target,
    spec,
    inputs.lent,
    { endpoint, model: agentModelName(model) },
    record.id,
  );
  const stored = record.request.mcp_config;
  const servers = mergeServers({
    settings: await ctx.settings.mcpConfig(),
    request: stored ? await withRequestMcpKeys(ctx.secrets, record.id, stored) : null,
    microagents: inputs.microagentServers,
  });
  const agent = new AcpAgent({
    label: spec.label,
    version: ctx.version,
    cwd: inputs.repoDir,
    launch: () => workspace.target.mcpStdioTransport(command),
    mcpServers: acpMcpServers(servers),
    sessionMode: sessionModeOf(spec),
    confirmationMode: confirmationSettings(settings).confirmationMode,
    instructions: record.request.conversation_instructions,
    append: (event) => start.appendEvent(event),
    onStatus: (update) => start.status(update),
    shell: workspace.shell,
    session: { saved: record.acpSession, save: (sessionId) => start.update({ acpSession: sessionId }) },
    startTimeoutMs: ctx.acp.startTimeoutSeconds * 1000,
  });
  // Titles are Dockhand's own model call, as for its own agent.
  const llm = ctx.llmFactory({
    model,
    apiKey: inputs.apiKey,
    baseUrl: settings.llm_base_url || null,
    signal: start.signal,
    timing: ctx.limits.llmTiming,
  });
  return {
    agent,
    title: (message) => generateTitle(llm, message, ctx.masker).then((generated) => generated?.title ?? null),
    begin: (first) => {
      const message = first ? record.request.initial_user_msg : null;
      agent.begin(message ? { content: message, imageUrls: record.request.image_urls } : null);
      return message;
    },
    close: () => agent.close(),
  };
}
