import { describe, expect, it } from 'vitest';
import { condensationAction, condensationRecord } from './condensation-event';
import { condensedView } from './condensed-view';
import { bashCalls, memoryLog, startConversation } from '../../../../test/support/condenser-conversation';

function history() {
  const log = memoryLog();
  startConversation(log.append);
  bashCalls(log.append, 12); // calls 1-10: ids 5-24, a state change 25, calls 11-12: ids 26-29
  return condensedView(log.events);
}

describe('condensationAction', () => {
  it('records an unbroken stretch of the view as a range, even across events out of view', () => {
    const event = condensationAction(history(), [21, 22, 23, 24, 26, 27], 'summary');
    expect(event).toMatchObject({
      source: 'agent',
      action: 'condensation',
      message: 'Summary: summary',
      args: {
        forgotten_event_ids: null,
        forgotten_events_start_id: 21,
        forgotten_events_end_id: 27,
        summary: 'summary',
        summary_offset: 21 - 5 + 3,
      },
    });
  });

  it('records scattered events as a list and takes the tool partners along', () => {
    const event = condensationAction(history(), [6, 9, 28], null);
    expect(event?.args).toEqual({
      forgotten_event_ids: [5, 6, 9, 10, 28, 29],
      forgotten_events_start_id: null,
      forgotten_events_end_id: null,
      summary: null,
      summary_offset: null,
    });
    expect(event?.message).toBe('Condenser is dropping the events 5, 6, 9, 10, 28, 29.');
  });

  it('is null when nothing would be forgotten', () => {
    expect(condensationAction(history(), [], 'summary')).toBeNull();
  });

  it('reads back what it recorded', () => {
    const range = condensationRecord({
      id: 40,
      timestamp: '',
      source: 'agent',
      message: '',
      ...condensationAction(history(), [21, 22], 's'),
    });
    expect([20, 21, 22, 23].map(range.forgets)).toEqual([false, true, true, false]);
    expect(range).toMatchObject({ summary: 's', summaryOffset: 19 });
    const list = condensationRecord({
      id: 41,
      timestamp: '',
      source: 'agent',
      message: '',
      ...condensationAction(history(), [6, 9], null),
    });
    expect([5, 6, 7, 8, 9, 10].map(list.forgets)).toEqual([true, true, false, false, true, true]);
    expect(list).toMatchObject({ summary: null, summaryOffset: null });
  });
});
