import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { sdkEvents as sdkEventsOf } from '../../src/service/agent-server/sdk-events';
import { fromV0 } from '../../src/service/events/model/v0-codec';

const CID = 'c0ffee';
let next = 0;

function event(fields: Partial<V0Event>): V0Event {
  return {
    id: next++,
    timestamp: `2026-01-01T00:00:${String(next).padStart(2, '0')}.000Z`,
    source: 'agent',
    message: '',
    ...fields,
  };
}

/** The SDK events of V0 events, read as the event log reads rows stored as V0. */
const sdkEvents = (conversationId: string, events: V0Event[]) =>
  sdkEventsOf(conversationId, events.map(fromV0));

function call(name: string, id: string, args: Record<string, unknown>) {
  return {
    function_name: name,
    tool_call_id: id,
    model_response: { id: 'resp-1' },
    total_calls_in_response: 1,
    arguments: args,
  };
}

describe('the SDK events of V0 events', () => {
  it('sends an action that waited for confirmation once, and points its observation at it', () => {
    next = 0;
    const metadata = call('str_replace_editor', 'call-1', {
      command: 'create',
      path: '/w/a.txt',
      file_text: 'x',
      security_risk: 'LOW',
    });
    const events = sdkEvents(CID, [
      event({
        action: 'edit',
        args: { confirmation_state: 'awaiting_confirmation', security_risk: 2 },
        tool_call_metadata: metadata,
      }),
      event({
        action: 'edit',
        args: { confirmation_state: 'confirmed', security_risk: 2 },
        tool_call_metadata: metadata,
      }),
      event({
        observation: 'edit',
        content: 'File created',
        extras: { path: '/w/a.txt' },
        cause: 1,
        tool_call_metadata: metadata,
      }),
    ]);
    expect(events.map((e) => e.kind)).toEqual(['ActionEvent', 'ObservationEvent']);
    expect(events[0]).toMatchObject({
      id: `${CID}:0`,
      action: { kind: 'FileEditorAction', command: 'create', path: '/w/a.txt', file_text: 'x' },
      security_risk: 'HIGH',
      llm_response_id: 'resp-1',
    });
    expect(events[0]?.action).not.toHaveProperty('security_risk');
    expect(events[1]).toMatchObject({
      action_id: `${CID}:0`,
      observation: {
        kind: 'FileEditorObservation',
        path: '/w/a.txt',
        is_error: false,
        content: [{ type: 'text', text: 'File created' }],
      },
    });
  });

  it('maps MCP calls, errors, condensations and summaries, and leaves out what the SDK has no model for', () => {
    next = 0;
    const mcp = call('fetch_page', 'call-9', { url: 'http://example.test' });
    const events = sdkEvents(CID, [
      event({ action: 'call_tool_mcp', args: {}, tool_call_metadata: mcp }),
      event({ observation: 'mcp', content: 'page', extras: {}, cause: 0, tool_call_metadata: mcp }),
      event({ observation: 'error', content: 'The model is unreachable', extras: {} }),
      event({ source: 'user', action: 'run', args: { command: 'ls' } }),
      event({ source: 'user', observation: 'run', content: 'a.txt', extras: { command: 'ls' }, cause: 3 }),
      event({ source: 'environment', observation: 'recall', content: 'context', extras: {} }),
      event({
        action: 'condensation',
        args: {
          forgotten_events_start_id: 0,
          forgotten_events_end_id: 2,
          summary: 'Fetched a page',
          summary_offset: 1,
        },
      }),
      event({ source: 'environment', observation: 'condense', content: 'Summary so far' }),
      event({
        source: 'environment',
        observation: 'agent_state_changed',
        content: '',
        extras: { agent_state: 'stopped' },
      }),
    ]);
    expect(events.map((e) => e.kind)).toEqual([
      'ActionEvent',
      'ObservationEvent',
      'AgentErrorEvent',
      'Condensation',
      'CondensationSummaryEvent',
    ]);
    expect(events[0]).toMatchObject({
      action: { kind: 'MCPToolAction', data: { url: 'http://example.test' } },
    });
    expect(events[1]).toMatchObject({ observation: { kind: 'MCPToolObservation' } });
    expect(events[2]).toMatchObject({
      source: 'agent',
      tool_name: '',
      tool_call_id: '',
      error: 'The model is unreachable',
    });
    expect(events[3]).toMatchObject({
      forgotten_event_ids: [`${CID}:0`, `${CID}:1`, `${CID}:2`],
      summary: 'Fetched a page',
      summary_offset: 1,
    });
    expect(events[4]).toMatchObject({ summary: 'Summary so far' });
  });

  it('records a pause as a PauseEvent and the paused state', () => {
    next = 0;
    const events = sdkEvents(CID, [
      event({
        source: 'environment',
        observation: 'agent_state_changed',
        content: '',
        extras: { agent_state: 'paused' },
      }),
    ]);
    expect(events).toEqual([
      { kind: 'PauseEvent', id: `${CID}:0-pause`, timestamp: events[0]?.timestamp, source: 'user' },
      {
        kind: 'ConversationStateUpdateEvent',
        id: `${CID}:0`,
        timestamp: events[0]?.timestamp,
        source: 'environment',
        key: 'execution_status',
        value: 'paused',
      },
    ]);
  });
});
