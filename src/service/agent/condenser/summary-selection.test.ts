import { describe, expect, it } from 'vitest';
import { condensedView } from './condensed-view';
import { DEFAULT_MAX_SIZE, keptLast, summaryMiddle, summaryTriggered } from './summary-selection';
import { bashCalls, memoryLog, startConversation } from '../../../../test/support/condenser-conversation';

describe('summary trigger and selection', () => {
  const base = { viewSize: 120, maxSize: 120, estimatedPromptTokens: 80_000, contextWindow: 100_000 };

  it('triggers above 120 events in view or above 80% of the context window', () => {
    expect(summaryTriggered(base)).toBe(false);
    expect(summaryTriggered({ ...base, viewSize: 121 })).toBe(true);
    expect(summaryTriggered({ ...base, estimatedPromptTokens: 80_001 })).toBe(true);
    expect(summaryTriggered({ ...base, viewSize: 21, maxSize: 20 })).toBe(true);
  });

  it('keeps the first 4 and the last 55 events by default, fewer for a smaller max size', () => {
    expect(keptLast(DEFAULT_MAX_SIZE)).toBe(55);
    expect(keptLast(20)).toBe(5);
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 60);
    const history = condensedView(log.events); // 3 + 120 events
    const middle = summaryMiddle(history, DEFAULT_MAX_SIZE);
    expect(middle[0]).toBe(history[4]);
    expect(middle.at(-1)).toBe(history.at(-56));
    expect(middle).toHaveLength(history.length - 4 - 55);
    expect(summaryMiddle(history.slice(0, 59), DEFAULT_MAX_SIZE)).toEqual([]);
  });
});
