import type { NewEvent, V0Event } from '../../src/shared/api/events';
import {
  agentStateChanged,
  systemAction,
  userMessage,
  recallObservation,
} from '../../src/service/agent/agent-events';
import type { CallMetadata } from '../../src/service/agent/call-metadata';
import type { NewDockhandEvent } from '../../src/service/events/model/dockhand-event';
import { callFromV0, toNewV0 } from '../../src/service/events/model/v0-codec';
import { executeBashTool } from '../../src/service/agent/tools/execute-bash';

/** Where test events go: an in-memory list or a real event log; the builders' events are kept in V0 form. */
export type AppendEvent = (event: NewEvent | NewDockhandEvent) => V0Event;

/** An in-memory log that numbers events from 0, as the event log does, in the V0 form the condenser reads. */
export function memoryLog(): { events: V0Event[]; append: AppendEvent } {
  const events: V0Event[] = [];
  const append = (event: NewEvent | NewDockhandEvent) => {
    const v0 = 'kind' in event ? toNewV0(event as NewDockhandEvent) : event;
    const stored = { ...v0, id: events.length, timestamp: new Date(0).toISOString() } as V0Event;
    events.push(stored);
    return stored;
  };
  return { events, append };
}

/** The start the loop records: states, the system event, the first user message and its recall. */
export function startConversation(append: AppendEvent, task = 'Make the tests pass.'): void {
  append(agentStateChanged('loading'));
  append(systemAction('You are a coding agent.', [], 'test'));
  append(agentStateChanged('running'));
  append(userMessage(task));
  append(recallObservation('<RUNTIME_INFORMATION>The working directory is /workspace/project.', {}));
}

function callMetadata(command: string, responseId: string, callId: string, calls: number): CallMetadata {
  return {
    function_name: executeBashTool.name,
    tool_call_id: callId,
    model_response: { id: responseId },
    total_calls_in_response: calls,
    arguments: { command },
  };
}

/** A bash call as the loop records it: the `run` action, then its observation (`cause` = the action). */
export function bashCall(
  append: AppendEvent,
  command: string,
  output: string,
  ids: { responseId: string; callId: string; calls?: number },
): { action: V0Event; observation: V0Event } {
  const metadata = callMetadata(command, ids.responseId, ids.callId, ids.calls ?? 1);
  const action = append({
    ...executeBashTool.toAction({ command, is_input: false }, ''),
    source: 'agent',
    confirmation: 'confirmed',
    securityRisk: 0,
    toolCall: callFromV0({ ...metadata }),
  });
  const observation = append({
    source: 'agent',
    message: `Command \`${command}\` executed with exit code 0.`,
    observation: 'run',
    content: output,
    extras: { command, hidden: false, metadata: { exit_code: 0 } },
    cause: action.id,
    tool_call_metadata: metadata,
  });
  return { action, observation };
}

/** `count` bash calls, one per model response, with a state change (out of view) after every tenth. */
export function bashCalls(append: AppendEvent, count: number, output = (i: number) => `output ${i}`): void {
  for (let i = 1; i <= count; i++) {
    bashCall(append, `echo step ${i}`, output(i), { responseId: `resp-${i}`, callId: `call-${i}` });
    if (i % 10 === 0) append(agentStateChanged('running'));
  }
}
