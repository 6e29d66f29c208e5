import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import { condensedView } from './condensed-view';
import { maskOldOutputs } from './observation-masking';
import { bashCalls, memoryLog, startConversation } from '../../../../test/support/condenser-conversation';

describe('maskOldOutputs', () => {
  const big = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(5_994)}end`;

  it('shows only the first and last 1,000 characters of big outputs outside the last 40 events', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 30, big); // 3 + 60 events; the first 23 are outside the last 40
    const view = condensedView(log.events);
    const masked = maskOldOutputs(view);
    const outputs = masked.filter((e) => e.observation === 'run');
    const old = outputs.filter((e) => masked.indexOf(e) < masked.length - 40);
    expect(old).toHaveLength(10);
    for (const event of old) {
      const original = view.find((e) => e.id === event.id)?.content as string;
      expect(event.content).toBe(
        `${original.slice(0, 1000)}\n[... 4000 characters of this older output are not shown ...]\n${original.slice(-1000)}`,
      );
    }
    for (const event of outputs.filter((e) => !old.includes(e))) expect(event.content).toHaveLength(6000);
    expect(view.every((e) => e.observation !== 'run' || e.content?.length === 6000)).toBe(true);
  });

  it('leaves outputs up to 5,000 characters and other observations whole', () => {
    const log = memoryLog();
    startConversation(log.append);
    bashCalls(log.append, 30, (i) => 'y'.repeat(i === 1 ? 5_000 : 10));
    log.events[8] = { ...(log.events[8] as V0Event), observation: 'read', content: 'z'.repeat(9_000) };
    bashCalls(log.append, 1, () => 'w'.repeat(9_000));
    const view = condensedView(log.events);
    expect(maskOldOutputs(view)).toEqual(view);
  });
});
