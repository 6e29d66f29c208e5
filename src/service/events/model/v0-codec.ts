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
 * format by earlier versions. An event the model does not describe exactly (its V0 form would not come
 * back unchanged) is read as a `legacy` event that keeps the stored form, so nothing stored is lost.
 */

type Json = Record<string, unknown>;
type Stamp = { id: number; timestamp: string };

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
const rekeyed = (value: Json, name: (key: string) => string): Json =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [name(k), v]));

/** Drops null and undefined top-level keys, as V0 events omit them. */
function withoutNulls(event: Json): Json {
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

function metricsFromV0(v: Json): LlmMetrics {
  const u = (v.accumulated_token_usage ?? {}) as Json;
  return {
    accumulatedCost: v.accumulated_cost as number,
    maxBudgetPerTask: v.max_budget_per_task as number | null,
    ...(v.cost_known === undefined ? {} : { costKnown: v.cost_known as boolean }),
    accumulatedTokenUsage: {
      model: u.model as string,
      promptTokens: u.prompt_tokens as number,
      completionTokens: u.completion_tokens as number,
      cacheReadTokens: u.cache_read_tokens as number,
      cacheWriteTokens: u.cache_write_tokens as number,
      contextWindow: u.context_window as number,
      perTurnTokens: u.per_turn_token as number,
      responseId: u.response_id as string,
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

function callFromV0(v: Json): ToolCall {
  const response = (v.model_response ?? {}) as Json;
  return {
    id: v.tool_call_id as string,
    name: v.function_name as string,
    rawInput: v.arguments,
    responseId: response.id as string,
    callsInResponse: v.total_calls_in_response as number,
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
    thought: (args.thought as string) ?? '',
    ...(args.confirmation_state === undefined
      ? {}
      : { confirmation: args.confirmation_state as ActionFields['confirmation'] }),
    ...(args.security_risk === undefined ? {} : { securityRisk: args.security_risk as number }),
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

function commandMetadataFromV0(v: Json): CommandMetadata {
  return {
    exitCode: v.exit_code as number,
    pid: v.pid as number,
    username: v.username as string | null,
    hostname: v.hostname as string | null,
    workingDir: v.working_dir as string | null,
    pyInterpreterPath: v.py_interpreter_path as string | null,
    prefix: v.prefix as string,
    suffix: v.suffix as string,
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
      return action('call_tool_mcp', `I am calling the MCP tool ${e.name} with ${JSON.stringify(e.arguments)}`, {
        name: e.name,
        arguments: e.arguments,
        thought: e.thought,
        ...actionTail(e),
      });
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

/** An event in the V0 wire format: common fields, then its action or observation. */
export function toV0(event: DockhandEvent): V0Event {
  if (event.kind === 'legacy') return { ...event.wire, id: event.id, timestamp: event.timestamp } as V0Event;
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

type Body0 = Omit<DockhandEvent, keyof EventBase> | null;

/** The kind and fields of a V0 action, or null for an action the model has no kind for. */
function actionFromV0(name: string, message: string, a: Json): Body0 {
  const risk = typeof a.security_risk === 'number' ? a.security_risk : -1;
  switch (name) {
    case 'message':
      return {
        kind: 'message',
        text: a.content as string,
        imageUrls: a.image_urls as string[] | null,
        fileUrls: a.file_urls as string[] | null,
        waitForResponse: a.wait_for_response as boolean,
        securityRisk: risk,
      };
    case 'system':
      return {
        kind: 'system',
        prompt: a.content as string,
        tools: a.tools as unknown[],
        version: a.openhands_version as string,
        agentClass: a.agent_class as string,
        mcpTools: (a.mcp_tools ?? {}) as Record<string, { server: string; tool: string }>,
      };
    case 'think':
      return { kind: 'thought', ...actionFieldsFromV0(a) };
    case 'run':
      return {
        kind: 'command',
        command: a.command as string,
        isInput: a.is_input as boolean,
        blocking: a.blocking as boolean,
        ...(a.timeout === undefined ? {} : { timeout: a.timeout as number }),
        isStatic: a.is_static as boolean,
        cwd: a.cwd as string | null,
        hidden: a.hidden as boolean,
        ...actionFieldsFromV0(a),
        ...(message === `Running command: ${String(a.command)}` ? {} : { description: message }),
        ...(a.repository_code ? { repositoryCode: a.repository_code as never } : {}),
      };
    case 'read':
      return {
        kind: 'read',
        path: a.path as string,
        start: a.start as number,
        end: a.end as number,
        viewRange: a.view_range as number[] | null,
        ...(a.impl_source === undefined ? {} : { implSource: a.impl_source as string }),
        ...actionFieldsFromV0(a),
      };
    case 'edit':
      return {
        kind: 'edit',
        path: a.path as string,
        command: a.command as string,
        fileText: a.file_text as string | null,
        oldStr: a.old_str as string | null,
        newStr: a.new_str as string | null,
        insertLine: a.insert_line as number | null,
        content: a.content as string,
        start: a.start as number,
        end: a.end as number,
        ...(a.impl_source === undefined ? {} : { implSource: a.impl_source as string }),
        ...actionFieldsFromV0(a),
      };
    case 'browse':
      return { kind: 'fetch', url: a.url as string, ...actionFieldsFromV0(a) };
    case 'task_tracking':
      return {
        kind: 'plan',
        command: a.command as 'view' | 'plan',
        tasks: a.task_list as PlanTask[],
        ...actionFieldsFromV0(a),
      };
    case 'call_tool_mcp':
      return { kind: 'mcp_call', name: a.name as string, arguments: a.arguments as Json, ...actionFieldsFromV0(a) };
    case 'change_agent_state':
      return { kind: 'status_request', state: a.agent_state as never, thought: (a.thought as string) ?? '' };
    case 'finish':
      return {
        kind: 'finish',
        message,
        outputs: (a.outputs ?? {}) as Json,
        ...actionFieldsFromV0(a),
      };
    case 'reject':
      return { kind: 'reject', reason: message, thought: (a.thought as string) ?? '' };
    case 'condensation': {
      const start = a.forgotten_events_start_id;
      const end = a.forgotten_events_end_id;
      return {
        kind: 'condensation',
        forgottenIds: a.forgotten_event_ids as number[] | null,
        forgottenRange: typeof start === 'number' && typeof end === 'number' ? { start, end } : null,
        summary: a.summary as string | null,
        summaryOffset: a.summary_offset as number | null,
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
      return { kind: 'status', state: x.agent_state as never, reason: (x.reason as string) ?? '' };
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
        command: x.command as string,
        output: content,
        hidden: x.hidden as boolean,
        metadata: x.metadata ? commandMetadataFromV0(x.metadata as Json) : null,
        success: v.success as boolean,
      };
    case 'read':
      return {
        kind: 'read_result',
        path: x.path as string,
        text: content,
        ...(x.impl_source === undefined ? {} : { implSource: x.impl_source as string }),
      };
    case 'edit':
      return {
        kind: 'edit_result',
        path: x.path as string,
        text: content,
        prevExist: x.prev_exist as boolean,
        oldContent: x.old_content as string | null,
        newContent: x.new_content as string | null,
        diff: x.diff as string | null,
        ...(x.impl_source === undefined ? {} : { implSource: x.impl_source as string }),
      };
    case 'browse':
      return {
        kind: 'fetch_result',
        url: x.url as string,
        text: content,
        ...(v.success === undefined ? {} : { success: v.success }),
      };
    case 'task_tracking':
      return {
        kind: 'plan_result',
        command: x.command as 'view' | 'plan',
        tasks: x.task_list as PlanTask[],
        text: content,
      };
    case 'mcp':
      return {
        kind: 'mcp_result',
        name: x.name as string,
        arguments: x.arguments as Json,
        text: content,
        ...(x.image_urls ? { imageUrls: x.image_urls as string[] } : {}),
        success: v.success as boolean,
      };
    case 'user_rejected':
      return { kind: 'user_rejected', text: content };
    case 'error':
      return { kind: 'error', text: content, errorId: (x.error_id as string) ?? '' };
    case 'condense':
      return { kind: 'condensation_summary', summary: content };
    case 'loop_detection':
      return {
        kind: 'loop_detection',
        text: content,
        pattern: x.pattern as string,
        loopStartId: x.loop_start_id as number,
      };
    default: {
      if (message !== content || x.hidden === undefined) return null;
      const { hidden, ...details } = x;
      return { kind: 'notice', name, text: content, details: rekeyed(details, camel), hidden: hidden as boolean };
    }
  }
}

/**
 * A V0 event as Dockhand's event. The result is checked by mapping it back: when that does not give the
 * event unchanged (a shape an earlier version wrote, or a kind the model lacks), it is a `legacy` event.
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
  const event = body && ({ ...base, ...body } as DockhandEvent);
  if (event && isDeepStrictEqual(toV0(event), v)) return event;
  const { id: _id, timestamp: _timestamp, ...wire } = v;
  return { ...base, kind: 'legacy', wire };
}
