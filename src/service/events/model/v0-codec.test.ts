import { describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import type { DockhandEvent, ToolCall } from './dockhand-event';
import { fromV0, toV0 } from './v0-codec';

const stamp = { id: 4, timestamp: '2026-01-01T00:00:00.000Z' };

describe('the V0 codec', () => {
  it('reads a V0 event of an earlier shape leniently, and keeps that shape for the V0 wire', () => {
    // An older version wrote messages without file_urls and with an extra key.
    const old = {
      ...stamp,
      source: 'user',
      message: 'hi',
      action: 'message',
      args: { content: 'hi', image_urls: [], wait_for_response: false, mood: 'happy' },
    } as V0Event;
    const read = fromV0(old);
    expect(read).toMatchObject({ kind: 'message', text: 'hi', imageUrls: [], waitForResponse: false });
    expect(read.storedV0).toBeDefined();
    expect(toV0(read)).toEqual(old);
  });

  it('keeps an event of a kind it does not know as a legacy event, unchanged on the wire', () => {
    const recall = {
      ...stamp,
      source: 'agent',
      message: 'Retrieving content for: fix',
      action: 'recall',
      args: { recall_type: 'knowledge', query: 'fix', thought: '' },
      cause: 3,
    } as V0Event;
    const read = fromV0(recall);
    expect(read).toMatchObject({ kind: 'legacy', id: 4, source: 'agent', cause: 3 });
    expect(toV0(read)).toEqual(recall);
  });

  it('carries an agent’s tool call that is no Dockhand tool, with its diff, title, kind and status', () => {
    const call: ToolCall = {
      id: 'toolu_1',
      name: 'Edit src/a.ts',
      kind: 'edit',
      status: 'completed',
      rawInput: { path: 'src/a.ts' },
      rawOutput: { ok: true },
      locations: [{ path: 'src/a.ts', line: 3 }],
    };
    const result: DockhandEvent = {
      ...stamp,
      kind: 'edit_result',
      source: 'agent',
      toolCall: call,
      path: 'src/a.ts',
      text: '',
      prevExist: true,
      oldContent: 'a',
      newContent: 'b',
      diff: null,
      diffs: [{ path: 'src/a.ts', oldText: 'a', newText: 'b' }],
    };
    expect(toV0(result)).toMatchObject({
      observation: 'edit',
      extras: { path: 'src/a.ts', old_content: 'a', new_content: 'b' },
      tool_call_metadata: { function_name: 'Edit src/a.ts', tool_call_id: 'toolu_1' },
    });
    const search: DockhandEvent = {
      ...stamp,
      kind: 'tool_call',
      source: 'agent',
      toolCall: { id: 'toolu_2', name: 'Find callers', kind: 'search', status: 'in_progress' },
      content: [{ type: 'text', text: 'searching' }],
    };
    expect(toV0(search)).toMatchObject({
      observation: 'tool_call',
      content: 'Find callers',
      extras: { tool_call: { id: 'toolu_2', kind: 'search', status: 'in_progress' } },
    });
  });
});
