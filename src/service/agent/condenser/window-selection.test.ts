import { describe, expect, it } from 'vitest';
import { agentMessage, userMessage } from '../agent-events';
import { condensationAction } from './condensation-event';
import { condensedView } from './condensed-view';
import { bashCalls, memoryLog, startConversation } from '../../../../test/support/condenser-conversation';
import { windowDropped } from './window-selection';

describe('windowDropped', () => {
  it('keeps the system event, the first user message with its recall and the newest half of the rest', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 4); // ids 5-12
    log.append(userMessage('Now also fix the linter.')); // 13
    bashCalls(log.append, 1); // 14, 15
    const view = condensedView(log.events);
    expect(windowDropped(view)).toEqual([5, 6, 7, 8, 9, 10]);
  });

  it('drops the observation whose action fell out when the condensation is recorded', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 3); // ids 5-10: the newest half of six is 8, 9, 10, and 8 is a result
    const view = condensedView(log.events);
    expect(windowDropped(view)).toEqual([5, 6, 7]);
    expect(condensationAction(view, windowDropped(view), null)?.args).toMatchObject({
      forgotten_events_start_id: 5,
      forgotten_events_end_id: 8,
    });
  });

  it('keeps at least the newest event', () => {
    const log = memoryLog();
    startConversation(log.append);
    log.append(agentMessage('Which tests?'));
    expect(windowDropped(condensedView(log.events))).toEqual([]);
  });
});
