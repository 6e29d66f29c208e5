import path from 'node:path';
import type { SettingsUpdate } from '../../shared/api/settings';
import type { ServiceContext } from '../context';
import type { EventLog } from '../events/event-log';
import type { McpToolset } from '../mcp/mcp-toolset';
import type { ShellSession } from '../sandbox/shell/shell-session';
import { AgentLoop, type AgentLoopConfig, type StatusUpdate } from './agent-loop';
import type { SavedAgentState } from './agent-state-store';
import { FALLBACK_CONTEXT_WINDOW } from './condenser/condenser';
import { confirmationSettings } from './confirmation-policy';
import { contextWarningEvent } from './llm/context-warning-event';
import type { LlmClientConfig } from './llm/llm-types';
import { LOCAL_MODEL_STATUS, localModelClient } from './llm/local-model-client';
import { resolveModelRoute, type ModelRoute } from './llm/model-routing';
import { fixedTokens } from './llm/context-plan';
import { contextWindowOf } from './llm/model-table';
import systemPrompt from './prompts/system-prompt.md?raw';
import { DEFAULT_MAX_ITERATIONS } from './step-budget';
import { generateTitle } from './title';
import { Editor, type EditorFiles } from './tools/str-replace-editor/editor';
import { ToolRegistry } from './tools/registry';
import { TaskList } from './tools/task-list';

/** Where the agent's tools act: the sandbox's shell and files. */
export interface AgentWorkspace {
  shell: ShellSession;
  files: EditorFiles;
  /** The directory the editor's relative paths start from. */
  workingDir(): string;
}

export interface AgentOptions {
  conversationId: string;
  events: EventLog;
  /** The stored settings (their secrets are not needed here). */
  settings: SettingsUpdate;
  /** The conversation's model (its own, else the settings'). */
  model: string;
  apiKey: string | null;
  /** Aborts every model call when the conversation closes. */
  signal: AbortSignal;
  workspace: AgentWorkspace;
  /** The names of the secrets the sandbox has as environment variables (the analyzer watches for them). */
  secretNames: string[];
  recall: AgentLoopConfig['recall'];
  /** The conversation's MCP servers: their tools join the built-in ones. */
  mcp: Pick<McpToolset, 'tools' | 'nameMap'>;
  /** Interrupts what runs for the agent (Stop). */
  interrupt(): Promise<unknown>;
  onStatus(update: StatusUpdate): void;
  saveState(state: SavedAgentState): void;
}

/** A conversation's agent: its loop, and the naming of the conversation with the same model. */
export interface Agent {
  loop: AgentLoop;
  /** A title from the first message (one model call; a cut message when it fails). */
  title(message: string): Promise<string | null>;
}

/** The fixed part of an agent turn for a model, in tokens: the system prompt and the built-in tools' schemas. */
export function agentFixedTokens(route: ModelRoute): number {
  return fixedTokens(route, { system: systemPrompt, tools: new ToolRegistry().definitions() });
}

/**
 * The client of a model on the user's own machine: probed, sized and checked before its first agent call,
 * with its notices as status updates and its context warnings as events. Null for remote models.
 */
function localModelFor(
  ctx: Pick<ServiceContext, 'masker' | 'llmFactory'> & Partial<Pick<ServiceContext, 'settings'>>,
  options: AgentOptions,
  config: LlmClientConfig,
): ReturnType<typeof localModelClient> | null {
  let route;
  try {
    route = resolveModelRoute(config.model, config.baseUrl);
  } catch {
    return null; // the factory reports an unroutable model as before
  }
  if (!route.local || !ctx.settings) return null;
  const warn = (reason: 'truncated' | 'too_small', message: string, numbers: Record<string, number>) =>
    options.events.add(options.conversationId, contextWarningEvent(reason, message, numbers), ctx.masker);
  return localModelClient(config, ctx.llmFactory, ctx.settings.modelProbes, {
    notice: (kind, message, plan) => {
      options.onStatus({ type: kind === 'info' ? 'info' : 'error', id: LOCAL_MODEL_STATUS, message });
      if (kind === 'warning') {
        warn('too_small', message, plan ? { neededTokens: plan.needed, contextWindow: plan.window } : {});
      }
    },
    truncated: (notice) =>
      warn('truncated', notice.message, {
        sentTokens: notice.sentTokens,
        countedTokens: notice.countedTokens,
        contextWindow: notice.window,
      }),
  });
}

/**
 * Builds a conversation's agent: the model client (through the service's `llmFactory`), the built-in and MCP
 * tools, the editor with its undo history, the task list, and the loop's configuration from the settings.
 * Events and the saved state go through the service's masker.
 */
export function createAgent(
  ctx: Pick<
    ServiceContext,
    'editHistory' | 'dataDir' | 'version' | 'masker' | 'secrets' | 'llmFactory' | 'limits'
  > &
    Partial<Pick<ServiceContext, 'settings'>>,
  options: AgentOptions,
): Agent {
  const { conversationId, settings, model } = options;
  const llmConfig = {
    model,
    apiKey: options.apiKey,
    baseUrl: settings.llm_base_url || null,
    signal: options.signal,
    timing: ctx.limits.llmTiming,
  };
  const local = localModelFor(ctx, options, llmConfig);
  const llm = local ?? ctx.llmFactory(llmConfig);
  const tools = new ToolRegistry();
  for (const tool of options.mcp.tools) tools.add(tool);
  const loop = new AgentLoop({
    conversationId,
    events: options.events,
    masker: ctx.masker,
    llm,
    tools,
    toolContext: {
      shell: options.workspace.shell,
      editor: new Editor(
        options.workspace.files,
        ctx.editHistory(conversationId),
        options.workspace.workingDir,
      ),
      tasks: new TaskList(path.join(ctx.dataDir, 'conversations', conversationId)),
    },
    secrets: { names: options.secretNames, values: ctx.secrets.values() },
    config: {
      systemPrompt,
      recall: options.recall,
      maxIterations: settings.max_iterations ?? DEFAULT_MAX_ITERATIONS,
      maxBudgetPerTask: settings.max_budget_per_task ?? null,
      version: ctx.version,
      condenserEnabled: settings.enable_default_condenser ?? true,
      condenserMaxSize: settings.condenser_max_size ?? null,
      // A local model's window is the one its server was sized to, known once the first step set it up.
      get contextWindow() {
        return local?.setup()?.plan.window ?? contextWindowOf(model) ?? FALLBACK_CONTEXT_WINDOW;
      },
      ...confirmationSettings(settings),
      mcpTools: options.mcp.nameMap(),
    },
    interrupt: options.interrupt,
    onStatus: options.onStatus,
    saveState: options.saveState,
  });
  return {
    loop,
    title: (message) => generateTitle(llm, message, ctx.masker).then((generated) => generated?.title ?? null),
  };
}
