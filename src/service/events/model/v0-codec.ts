import { isDeepStrictEqual } from 'node:util';
import type { V0Event } from '../../../shared/api/events';
import type {
  ActionFields,
  CommandMetadata,
  DockhandEvent,
  EventBase,
  EventSource,
  LlmMetrics,
  NewDockhandEvent,
  PlanTask,
  ToolCall,
} from './dockhand-event';

/**
 * The one mapping between Dockhand's events and the V0 wire event (api-contract §5). `toV0` is what V0
 * clients get (REST pages, SSE, socket.io) and what V1 wraps; `fromV0` reads events stored in the V0
 * format by earlier versions (and those producers still build). An event whose V0 form would not come back
 * unchanged keeps the stored form, so nothing stored is lost and old conversations replay as they were.
 */

type Json = Record<string, unknown>;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
export const rekeyed = (value: Json, name: (key: string) => string): Json =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [name(k), v]));

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const strOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const numOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
const bool = (value: unknown): boolean => value === true;
const record = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/** Drops null and undefined top-level keys, as V0 events omit them. */
export function withoutNulls(event: Json): Json {
  return Object.fromEntries(Object.entries(event).filter(([, v]) => v !== null && v !== undefined));
}

function metricsToV0(m: LlmMetrics): Json {
  const u = m.accumulatedTokenUsage;
  return {
    accumulated_cost: m.accumulatedCost,
    max_budget_per_task: m.maxBudgetPerTask,
    ...(m.costKnown === undefined ? {} : { cost_known: m.costKnown }),
    accumulated_token_usage: {
      model: u.model,
      prompt_tokens: u.promptTokens,
      completion_tokens: u.completionTokens,
      cache_read_tokens: u.cacheReadTokens,
      cache_write_tokens: u.cacheWriteTokens,
      context_window: u.contextWindow,
      per_turn_token: u.perTurnTokens,
      response_id: u.responseId,
    },
    costs: [],
    response_latencies: [],
    token_usages: [],
  };
}

/** `llm_metrics` as Dockhand's metrics. */
export function metricsFromV0(v: Json): LlmMetrics {
  const u = (v.accumulated_token_usage ?? {}) as Json;
  return {
    accumulatedCost: num(v.accumulated_cost),
    maxBudgetPerTask: numOrNull(v.max_budget_per_task),
    ...(v.cost_known === undefined ? {} : { costKnown: bool(v.cost_known) }),
    accumulatedTokenUsage: {
      model: str(u.model),
      promptTokens: num(u.prompt_tokens),
      completionTokens: num(u.completion_tokens),
      cacheReadTokens: num(u.cache_read_tokens),
      cacheWriteTokens: num(u.cache_write_tokens),
      contextWindow: num(u.context_window),
      perTurnTokens: num(u.per_turn_token),
      responseId: str(u.response_id),
    },
  };
}

/** V0's `tool_call_metadata` of a call (only what V0 has: ACP's title, kind and status are not in it). */
function callToV0(call: ToolCall): Json {
  return {
    function_name: call.name,
    tool_call_id: call.id,
    model_response: { id: call.responseId ?? '' },
    total_calls_in_response: call.callsInResponse ?? 1,
    arguments: call.rawInput,
  };
}

/** A `tool_call_metadata` (`function_name`, `tool_call_id`, …) as the tool call it names. */
export function callFromV0(v: Json): ToolCall {
  const response = (v.model_response ?? {}) as Json;
  return {
    id: str(v.tool_call_id),
    name: str(v.function_name),
    rawInput: v.arguments,
    responseId: str(response.id),
    callsInResponse: num(v.total_calls_in_response),
  };
}

/** The args every tool action ends with. */
function actionTail(e: ActionFields): Json {
  return {
    ...(e.confirmation === undefined ? {} : { confirmation_state: e.confirmation }),
    ...(e.securityRisk === undefined ? {} : { security_risk: e.securityRisk }),
    ...(e.securityRules === undefined ? {} : { security_rules: e.securityRules }),
  };
}

function actionFieldsFromV0(args: Json): ActionFields {
  return {
    thought: str(args.thought),
    ...(args.confirmation_state === undefined
      ? {}
      : { confirmation: args.confirmation_state as ActionFields['confirmation'] }),
    ...(args.security_risk === undefined ? {} : { securityRisk: num(args.security_risk) }),
    ...(args.security_rules === undefined ? {} : { securityRules: args.security_rules as string[] }),
  };
}

function commandMetadataToV0(m: CommandMetadata): Json {
  return {
    exit_code: m.exitCode,
    pid: m.pid,
    username: m.username,
    hostname: m.hostname,
    working_dir: m.workingDir,
    py_interpreter_path: m.pyInterpreterPath,
    prefix: m.prefix,
    suffix: m.suffix,
  };
}

/** The shell's facts after a command, as the shell reports them (`exit_code`, `working_dir`, …). */
export function commandMetadataFromV0(v: Json): CommandMetadata {
  return {
    exitCode: num(v.exit_code),
    pid: num(v.pid),
    username: strOrNull(v.username),
    hostname: strOrNull(v.hostname),
    workingDir: strOrNull(v.working_dir),
    pyInterpreterPath: strOrNull(v.py_interpreter_path),
    prefix: str(v.prefix),
    suffix: str(v.suffix),
  };
}

type Body = Omit<V0Event, 'id' | 'timestamp' | 'source' | 'cause' | 'tool_call_metadata' | 'llm_metrics'>;

const action = (name: string, message: string, args: Json): Body => ({ message, action: name, args });
const observation = (name: string, content: string, extras: Json, message = content): Body => ({
  message,
  observation: name,
  content,
  extras,
});

/** The V0 action or observation of an event, without the common fields. */
function bodyToV0(e: NewDockhandEvent): Body {
  switch (e.kind) {
    case 'message':
      return action('message', e.text, {
        content: e.text,
        image_urls: e.imageUrls,
        file_urls: e.fileUrls,
        wait_for_response: e.waitForResponse,
        security_risk: e.securityRisk,
      });
    case 'system':
      return action('system', e.prompt, {
        content: e.prompt,
        tools: e.tools,
        openhands_version: e.version,
        agent_class: e.agentClass,
        mcp_tools: e.mcpTools,
      });
    case 'recall':
      return observation(
        'recall',
        e.text,
        { recall_type: e.recallType, ...rekeyed(e.context, snake) },
        e.recallType === 'knowledge' ? 'Added microagent knowledge' : 'Added workspace context',
      );
    case 'thought':
      return action('think', `I am thinking...: ${e.thought}`, { thought: e.thought, ...actionTail(e) });
    case 'thought_result':
      return observation('think', e.text, {});
    case 'command':
      return action('run', e.description ?? `Running command: ${e.command}`, {
        command: e.command,
        is_input: e.isInput,
        thought: e.thought,
        blocking: e.blocking,
        is_static: e.isStatic,
        cwd: e.cwd,
        hidden: e.hidden,
        ...(e.timeout === undefined ? {} : { timeout: e.timeout }),
        ...actionTail(e),
        ...(e.repositoryCode ? { repository_code: e.repositoryCode } : {}),
      });
    case 'command_result':
      return {
        ...observation(
          'run',
          e.output,
          {
            command: e.command,
            hidden: e.hidden,
            metadata: e.metadata && commandMetadataToV0(e.metadata),
          },
          `Command \`${e.command}\` executed with exit code ${e.metadata?.exitCode ?? -1}.`,
        ),
        success: e.success,
      };
    case 'read':
      return action('read', `Reading file: ${e.path}`, {
        path: e.path,
        start: e.start,
        end: e.end,
        thought: e.thought,
        ...(e.implSource === undefined ? {} : { impl_source: e.implSource }),
        view_range: e.viewRange,
        ...actionTail(e),
      });
    case 'read_result':
      return observation(
        'read',
        e.text,
        { path: e.path, ...(e.implSource === undefined ? {} : { impl_source: e.implSource }) },
        `I read the file ${e.path}.`,
      );
    case 'edit':
      return action('edit', `Editing file: ${e.path}`, {
        path: e.path,
        command: e.command,
        file_text: e.fileText,
        old_str: e.oldStr,
        new_str: e.newStr,
        insert_line: e.insertLine,
        content: e.content,
        start: e.start,
        end: e.end,
        thought: e.thought,
        ...(e.implSource === undefined ? {} : { impl_source: e.implSource }),
        ...actionTail(e),
      });
    case 'edit_result':
      return observation(
        'edit',
        e.text,
        {
          path: e.path,
          ...(e.implSource === undefined ? {} : { impl_source: e.implSource }),
          prev_exist: e.prevExist,
          old_content: e.oldContent,
          new_content: e.newContent,
          diff: e.diff,
        },
        `I edited the file ${e.path}.`,
      );
    case 'fetch':
      return action('browse', `Browsing ${e.url}`, { url: e.url, thought: e.thought, ...actionTail(e) });
    case 'fetch_result':
      return {
        ...observation('browse', e.text, { url: e.url }, `Visited ${e.url}`),
        ...(e.success === undefined ? {} : { success: e.success }),
      };
    case 'plan':
      return action(
        'task_tracking',
        e.command === 'plan' ? `Updating the task list (${e.tasks.length} items)` : 'Viewing the task list',
        { command: e.command, task_list: e.tasks, thought: e.thought, ...actionTail(e) },
      );
    case 'plan_result':
      return observation('task_tracking', e.text, { command: e.command, task_list: e.tasks });
    case 'mcp_call':
      return action(
        'call_tool_mcp',
        `I am calling the MCP tool ${e.name} with ${JSON.stringify(e.arguments)}`,
        {
          name: e.name,
          arguments: e.arguments,
          thought: e.thought,
          ...actionTail(e),
        },
      );
    case 'mcp_result':
      return {
        ...observation('mcp', e.text, {
          name: e.name,
          arguments: e.arguments,
          ...(e.imageUrls ? { image_urls: e.imageUrls } : {}),
        }),
        success: e.success,
      };
    case 'user_rejected':
      return observation('user_rejected', e.text, {});
    case 'status':
      return observation('agent_state_changed', '', { agent_state: e.state, reason: e.reason }, '');
    case 'status_request':
      return action('change_agent_state', `Agent state changed to ${e.state}`, {
        agent_state: e.state,
        thought: e.thought,
      });
    case 'error':
      return observation('error', e.text, { error_id: e.errorId });
    case 'finish':
      return action('finish', e.message, {
        final_thought: e.message,
        outputs: e.outputs,
        thought: e.thought,
        ...actionTail(e),
      });
    case 'reject':
      return action('reject', e.reason, { outputs: { reason: e.reason }, thought: e.thought });
    case 'condensation':
      return action('condensation', e.text, {
        forgotten_event_ids: e.forgottenIds,
        forgotten_events_start_id: e.forgottenRange?.start ?? null,
        forgotten_events_end_id: e.forgottenRange?.end ?? null,
        summary: e.summary,
        summary_offset: e.summaryOffset,
      });
    case 'condensation_summary':
      return observation('condense', e.summary, {});
    case 'loop_detection':
      return observation('loop_detection', e.text, {
        pattern: e.pattern,
        loop_start_id: e.loopStartId,
        hidden: true,
      });
    case 'notice':
      return observation(e.name, e.text, { ...rekeyed(e.details, snake), hidden: e.hidden });
    case 'legacy':
      return e.wire as Body;
    // Kinds V0 has no event for: an observation named by the kind, which OpenHands clients ignore.
    case 'tool_call':
    case 'tool_call_update':
      return observation(e.kind, e.toolCall.name, {
        tool_call: rekeyed({ ...e.toolCall }, snake),
        content: e.content ?? [],
      });
    case 'confirmation_request':
      return observation(e.kind, e.toolCall?.name ?? '', { options: e.options });
    case 'confirmation_answer':
      return observation(e.kind, e.answer, {
        answer: e.answer,
        option_id: e.optionId ?? null,
        reason: e.reason ?? null,
      });
    case 'usage':
      return observation(e.kind, '', {
        usage: rekeyed({ ...e.usage }, snake),
        accumulated_cost: e.accumulatedCost ?? null,
      });
  }
}

/** A V0 event without its number and time (what a row keeps of it besides them). */
function withoutStamp(event: V0Event): Omit<V0Event, 'id' | 'timestamp'> {
  return Object.fromEntries(
    Object.entries(event).filter(([key]) => key !== 'id' && key !== 'timestamp'),
  ) as Omit<V0Event, 'id' | 'timestamp'>;
}

/** An event not yet numbered in the V0 form, for producers that still hand V0 events to the log. */
export function toNewV0(event: NewDockhandEvent): Omit<V0Event, 'id' | 'timestamp'> {
  return withoutStamp(toV0({ ...event, id: 0, timestamp: '' } as DockhandEvent));
}

/** An event in the V0 wire format: common fields, then its action or observation. */
export function toV0(event: DockhandEvent): V0Event {
  const stored = event.kind === 'legacy' ? event.wire : event.storedV0;
  if (stored) return { ...stored, id: event.id, timestamp: event.timestamp } as V0Event;
  return withoutNulls({
    source: event.source,
    ...bodyToV0(event),
    ...(event.cause === undefined ? {} : { cause: event.cause }),
    ...(event.toolCall ? { tool_call_metadata: callToV0(event.toolCall) } : {}),
    ...(event.metrics ? { llm_metrics: metricsToV0(event.metrics) } : {}),
    id: event.id,
    timestamp: event.timestamp,
  }) as V0Event;
}

type Fields<E> = E extends DockhandEvent ? Omit<E, keyof EventBase> : never;
type Body0 = Fields<DockhandEvent> | null;

/** The kind and fields of a V0 action, or null for an action the model has no kind for. */
function actionFromV0(name: string, message: string, a: Json): Body0 {
  const risk = typeof a.security_risk === 'number' ? a.security_risk : -1;
  switch (name) {
    case 'message':
      return {
        kind: 'message',
        text: str(a.content),
        imageUrls: a.image_urls as string[] | null,
        fileUrls: a.file_urls as string[] | null,
        waitForResponse: bool(a.wait_for_response),
        securityRisk: risk,
      };
    case 'system':
      return {
        kind: 'system',
        prompt: str(a.content),
        tools: Array.isArray(a.tools) ? a.tools : [],
        version: str(a.openhands_version),
        agentClass: str(a.agent_class),
        mcpTools: (a.mcp_tools ?? {}) as Record<string, { server: string; tool: string }>,
      };
    case 'think':
      return { kind: 'thought', ...actionFieldsFromV0(a) };
    case 'run':
      return {
        kind: 'command',
        command: str(a.command),
        isInput: bool(a.is_input),
        blocking: bool(a.blocking),
        ...(a.timeout === undefined ? {} : { timeout: num(a.timeout) }),
        isStatic: bool(a.is_static),
        cwd: strOrNull(a.cwd),
        hidden: bool(a.hidden),
        ...actionFieldsFromV0(a),
        ...(message === `Running command: ${String(a.command)}` ? {} : { description: message }),
        ...(a.repository_code ? { repositoryCode: a.repository_code as never } : {}),
      };
    case 'read':
      return {
        kind: 'read',
        path: str(a.path),
        start: num(a.start),
        end: num(a.end),
        viewRange: a.view_range as number[] | null,
        ...(a.impl_source === undefined ? {} : { implSource: str(a.impl_source) }),
        ...actionFieldsFromV0(a),
      };
    case 'edit':
      return {
        kind: 'edit',
        path: str(a.path),
        command: str(a.command),
        fileText: strOrNull(a.file_text),
        oldStr: strOrNull(a.old_str),
        newStr: strOrNull(a.new_str),
        insertLine: numOrNull(a.insert_line),
        content: str(a.content),
        start: num(a.start),
        end: num(a.end),
        ...(a.impl_source === undefined ? {} : { implSource: str(a.impl_source) }),
        ...actionFieldsFromV0(a),
      };
    case 'browse':
      return { kind: 'fetch', url: str(a.url), ...actionFieldsFromV0(a) };
    case 'task_tracking':
      return {
        kind: 'plan',
        command: a.command as 'view' | 'plan',
        tasks: Array.isArray(a.task_list) ? (a.task_list as PlanTask[]) : [],
        ...actionFieldsFromV0(a),
      };
    case 'call_tool_mcp':
      return {
        kind: 'mcp_call',
        name: str(a.name),
        arguments: record(a.arguments),
        ...actionFieldsFromV0(a),
      };
    case 'change_agent_state':
      return { kind: 'status_request', state: a.agent_state as never, thought: str(a.thought) };
    case 'finish':
      return {
        kind: 'finish',
        message,
        outputs: (a.outputs ?? {}) as Json,
        ...actionFieldsFromV0(a),
      };
    case 'reject':
      return { kind: 'reject', reason: message, thought: str(a.thought) };
    case 'condensation': {
      const start = a.forgotten_events_start_id;
      const end = a.forgotten_events_end_id;
      return {
        kind: 'condensation',
        forgottenIds: a.forgotten_event_ids as number[] | null,
        forgottenRange: typeof start === 'number' && typeof end === 'number' ? { start, end } : null,
        summary: strOrNull(a.summary),
        summaryOffset: numOrNull(a.summary_offset),
        text: message,
      };
    }
    default:
      return null;
  }
}

/** The kind and fields of a V0 observation, or null for one the model has no kind for. */
function observationFromV0(name: string, message: string, content: string, x: Json, v: V0Event): Body0 {
  switch (name) {
    case 'agent_state_changed':
      return { kind: 'status', state: x.agent_state as never, reason: str(x.reason) };
    case 'recall': {
      const { recall_type: recallType, ...context } = x;
      return {
        kind: 'recall',
        recallType: recallType as 'workspace_context' | 'knowledge',
        text: content,
        context: rekeyed(context, camel),
      };
    }
    case 'think':
      return { kind: 'thought_result', text: content };
    case 'run':
      return {
        kind: 'command_result',
        command: str(x.command),
        output: content,
        hidden: bool(x.hidden),
        metadata: x.metadata ? commandMetadataFromV0(x.metadata as Json) : null,
        success: bool(v.success),
      };
    case 'read':
      return {
        kind: 'read_result',
        path: str(x.path),
        text: content,
        ...(x.impl_source === undefined ? {} : { implSource: str(x.impl_source) }),
      };
    case 'edit':
      return {
        kind: 'edit_result',
        path: str(x.path),
        text: content,
        prevExist: bool(x.prev_exist),
        oldContent: strOrNull(x.old_content),
        newContent: strOrNull(x.new_content),
        diff: strOrNull(x.diff),
        ...(x.impl_source === undefined ? {} : { implSource: str(x.impl_source) }),
      };
    case 'browse':
      return {
        kind: 'fetch_result',
        url: str(x.url),
        text: content,
        ...(v.success === undefined ? {} : { success: v.success }),
      };
    case 'task_tracking':
      return {
        kind: 'plan_result',
        command: x.command as 'view' | 'plan',
        tasks: Array.isArray(x.task_list) ? (x.task_list as PlanTask[]) : [],
        text: content,
      };
    case 'mcp':
      return {
        kind: 'mcp_result',
        name: str(x.name),
        arguments: record(x.arguments),
        text: content,
        ...(x.image_urls ? { imageUrls: x.image_urls as string[] } : {}),
        success: bool(v.success),
      };
    case 'user_rejected':
      return { kind: 'user_rejected', text: content };
    case 'error':
      return { kind: 'error', text: content, errorId: str(x.error_id) };
    case 'condense':
      return { kind: 'condensation_summary', summary: content };
    case 'loop_detection':
      return {
        kind: 'loop_detection',
        text: content,
        pattern: num(x.pattern),
        loopStartId: num(x.loop_start_id),
      };
    default: {
      if (message !== content || x.hidden === undefined) return null;
      const { hidden, ...details } = x;
      return { kind: 'notice', name, text: content, details: rekeyed(details, camel), hidden: bool(hidden) };
    }
  }
}

/**
 * A V0 event as Dockhand's event, its fields read leniently (defaults for what is missing). The result is
 * checked by mapping it back: when that does not give the event unchanged (a shape an earlier version
 * wrote), the event keeps the stored form in `storedV0`; a kind the model lacks is a `legacy` event.
 */
export function fromV0(v: V0Event): DockhandEvent {
  const base: EventBase = {
    id: v.id,
    timestamp: v.timestamp,
    source: v.source as EventSource,
    ...(v.cause === undefined ? {} : { cause: v.cause }),
    ...(v.tool_call_metadata ? { toolCall: callFromV0(v.tool_call_metadata) } : {}),
    ...(v.llm_metrics ? { metrics: metricsFromV0(v.llm_metrics) } : {}),
  };
  const body = v.action
    ? actionFromV0(v.action, v.message, v.args ?? {})
    : v.observation
      ? observationFromV0(v.observation, v.message, v.content ?? '', v.extras ?? {}, v)
      : null;
  const wire = withoutStamp(v);
  if (!body) return { ...base, kind: 'legacy', wire };
  const event = { ...base, ...body } as DockhandEvent;
  return isDeepStrictEqual(toV0(event), v) ? event : { ...event, storedV0: wire };
}
