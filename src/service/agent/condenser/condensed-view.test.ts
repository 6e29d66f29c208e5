import { describe, expect, it } from 'vitest';
import { agentStateChanged, errorObservation, userMessage } from '../agent-events';
import { buildMessages } from '../message-builder';
import { condensationAction } from './condensation-event';
import { condensedView, GrowingCondensedView, splitSummary } from './condensed-view';
import {
  bashCall,
  bashCalls,
  memoryLog,
  startConversation,
} from '../../../../test/support/condenser-conversation';

const ids = (events: { id: number }[]) => events.map((e) => e.id);

function condense(log: ReturnType<typeof memoryLog>, dropped: number[], summary: string | null): void {
  const event = condensationAction(splitSummary(condensedView(log.events)).history, dropped, summary);
  if (!event) throw new Error('nothing to forget');
  log.append(event);
}

describe('condensedView', () => {
  it('leaves out state changes and hidden events', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 10);
    log.append({
      source: 'user',
      message: 'hidden',
      action: 'message',
      args: { content: 'hidden', hidden: true },
    });
    log.append({
      source: 'environment',
      message: '',
      observation: 'loop_detection',
      content: 'x',
      extras: { hidden: true },
    });
    log.append(agentStateChanged('awaiting_user_input'));
    const view = condensedView(log.events);
    expect(view.map((e) => e.action ?? e.observation)).not.toContain('agent_state_changed');
    expect(ids(view)).toEqual([1, 3, 4, ...Array.from({ length: 20 }, (_, i) => 5 + i)]);
  });

  it('drops what condensations forgot, as an id list or a range, and the condensations themselves', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 12); // calls 1-10: ids 5-24, state 25, calls 11-12: ids 26-29
    const before = condensedView(log.events);
    log.append({
      source: 'agent',
      message: '',
      action: 'condensation',
      args: {
        forgotten_event_ids: [5, 6],
        forgotten_events_start_id: null,
        forgotten_events_end_id: null,
        summary: null,
        summary_offset: null,
      },
    });
    log.append({
      source: 'agent',
      message: '',
      action: 'condensation',
      args: {
        forgotten_event_ids: null,
        forgotten_events_start_id: 9,
        forgotten_events_end_id: 26,
        summary: null,
        summary_offset: null,
      },
    });
    const view = condensedView(log.events);
    expect(ids(view)).toEqual(
      ids(before).filter((id) => id !== 5 && id !== 6 && !(id >= 9 && id <= 26) && id !== 27),
    );
    expect(view.some((e) => e.action === 'condensation')).toBe(false);
  });

  it('shows the latest summary as a `condense` observation at its offset', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 6); // ids 5-16
    condense(log, [5, 6], 'first summary');
    expect(condensedView(log.events)[3]).toMatchObject({ id: 17, content: 'first summary' });
    condense(log, [7, 8, 9, 10], 'second summary');
    const view = condensedView(log.events);
    expect(ids(view)).toEqual([1, 3, 4, 18, 11, 12, 13, 14, 15, 16]);
    expect(view[3]).toMatchObject({ observation: 'condense', content: 'second summary', source: 'agent' });
  });

  it('never lets a call reach the model without its result, nor a result without its call', () => {
    const log = memoryLog();
    startConversation(log.append);
    const forgottenAction = bashCall(log.append, 'ls', 'a b', { responseId: 'r1', callId: 'c1' });
    const forgottenResult = bashCall(log.append, 'pwd', '/w', { responseId: 'r2', callId: 'c2' });
    const userRun = log.append({
      source: 'user',
      message: 'Running command: id',
      action: 'run',
      args: { command: 'id' },
    });
    log.append({
      source: 'user',
      message: '',
      observation: 'run',
      content: 'uid=1000',
      extras: {},
      cause: userRun.id,
    });
    const unexecuted = log.append(
      errorObservation('Tool nope is not registered.', {
        toolCall: { id: 'c3', name: 'nope', responseId: 'r3', callsInResponse: 1 },
      }),
    );
    log.append({
      source: 'agent',
      message: '',
      action: 'condensation',
      args: { forgotten_event_ids: [forgottenAction.action.id, forgottenResult.observation.id, userRun.id] },
    });
    const view = condensedView(log.events);
    expect(ids(view)).toEqual([1, 3, 4, unexecuted.id]);
    const messages = buildMessages(view);
    expect(JSON.stringify(messages)).not.toContain('a b');
    expect(JSON.stringify(messages)).not.toContain('uid=1000');
  });
});

describe('GrowingCondensedView', () => {
  it('gives what condensedView gives after every event of a growing conversation', () => {
    const log = memoryLog();
    const growing = new GrowingCondensedView();
    const check = () => expect(growing.of(log.events)).toEqual(condensedView(log.events));
    startConversation(log.append);
    check();
    for (let i = 0; i < 12; i++) {
      bashCall(log.append, `echo ${i}`, `${i}`, { responseId: `r${i}`, callId: `c${i}` });
      check();
      log.append(agentStateChanged('running'));
      check();
      if (i === 4) {
        condense(log, ids(splitSummary(condensedView(log.events)).history).slice(2, 6), 'first summary');
        check();
      }
      if (i === 8) {
        condense(log, ids(splitSummary(condensedView(log.events)).history).slice(1, 3), null);
        check();
        log.append(errorObservation('a call that did not run'));
        check();
      }
    }
    log.append(userMessage('Go on.'));
    check();
  });
});
