import { isDeepStrictEqual } from 'node:util';
import type { V0Event } from '../../../shared/api/events';
import type { DockhandEvent, EventBase, EventSource, PlanTask } from './dockhand-event';
import { toV0 } from './to-v0';
import {
  actionFieldsFromV0,
  bool,
  callFromV0,
  camel,
  commandMetadataFromV0,
  type Json,
  metricsFromV0,
  num,
  numOrNull,
  record,
  rekeyed,
  str,
  strOrNull,
  withoutStamp,
} from './v0-fields';

/**
 * V0 wire events as Dockhand's events: those stored in the V0 format by earlier versions, and those
 * producers still build.
 */

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
