import type { V0Event } from '../../../shared/api/events';
import type { DockhandEvent, NewDockhandEvent } from './dockhand-event';
import {
  actionTail,
  callToV0,
  commandMetadataToV0,
  type Json,
  metricsToV0,
  rekeyed,
  snake,
  withoutNulls,
  withoutStamp,
} from './v0-fields';

/**
 * Dockhand's events as V0 wire events: what V0 clients get (REST pages, SSE, socket.io) and what V1 wraps.
 */

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
