import type { V0Event } from '../../../shared/api/events';
import type { ActionFields, CommandMetadata, LlmMetrics, ToolCall } from './dockhand-event';

/** The field helpers both directions of the V0 mapping share: key case, lenient reads, the common parts. */

export type Json = Record<string, unknown>;

export const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
export const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
export const rekeyed = (value: Json, name: (key: string) => string): Json =>
  Object.fromEntries(Object.entries(value).map(([k, v]) => [name(k), v]));

export const str = (value: unknown): string => (typeof value === 'string' ? value : '');
export const strOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
export const numOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
export const bool = (value: unknown): boolean => value === true;
export const record = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};

/** Drops null and undefined top-level keys, as V0 events omit them. */
export function withoutNulls(event: Json): Json {
  return Object.fromEntries(Object.entries(event).filter(([, v]) => v !== null && v !== undefined));
}

export function metricsToV0(m: LlmMetrics): Json {
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
export function callToV0(call: ToolCall): Json {
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
export function actionTail(e: ActionFields): Json {
  return {
    ...(e.confirmation === undefined ? {} : { confirmation_state: e.confirmation }),
    ...(e.securityRisk === undefined ? {} : { security_risk: e.securityRisk }),
    ...(e.securityRules === undefined ? {} : { security_rules: e.securityRules }),
  };
}

export function actionFieldsFromV0(args: Json): ActionFields {
  return {
    thought: str(args.thought),
    ...(args.confirmation_state === undefined
      ? {}
      : { confirmation: args.confirmation_state as ActionFields['confirmation'] }),
    ...(args.security_risk === undefined ? {} : { securityRisk: num(args.security_risk) }),
    ...(args.security_rules === undefined ? {} : { securityRules: args.security_rules as string[] }),
  };
}

export function commandMetadataToV0(m: CommandMetadata): Json {
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

/** A V0 event without its number and time (what a row keeps of it besides them). */
export function withoutStamp(event: V0Event): Omit<V0Event, 'id' | 'timestamp'> {
  return Object.fromEntries(
    Object.entries(event).filter(([key]) => key !== 'id' && key !== 'timestamp'),
  ) as Omit<V0Event, 'id' | 'timestamp'>;
}
