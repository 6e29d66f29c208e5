import { afterEach, describe, expect, it } from 'vitest';
import { sdkEvents } from '../../src/service/agent-server/sdk-events';
import { ConversationStore } from '../../src/service/conversations/conversation-store';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { openDatabase } from '../../src/service/storage/database';
import type { V0Event } from '../../src/shared/api/events';
import { blankConversation } from '../support/conversation-records';
import { openSseStream } from '../support/event-clients';
import { startTestService, tempDataDir, type TestService } from '../support/service';
import { until } from '../support/until';
import { FIXTURES, readFixture, type EventFixture } from './event-fixtures';

/**
 * A data folder as an earlier version left it: the conversation's events stored as V0 rows (the `format`
 * the migration gives rows written before it).
 */
function seedV0Rows(dataDir: string, fixture: EventFixture): void {
  const db = openDatabase(dataDir);
  new ConversationStore(db).insert(blankConversation(fixture.conversationId));
  const insert = db.prepare(
    "INSERT INTO events (conversation_id, id, timestamp, format, data) VALUES (?, ?, ?, 'v0', ?)",
  );
  for (const event of fixture.v0)
    insert.run(fixture.conversationId, event.id, event.timestamp, JSON.stringify(event));
  db.close();
}

describe.each(FIXTURES)('a conversation stored as V0 rows (%s)', (file) => {
  const fixture = readFixture(file);
  const id = fixture.conversationId;
  let service: TestService | null = null;

  afterEach(async () => {
    await service?.close();
    service = null;
  });

  it('replays over V0 REST, SSE, V1 and the SDK mapping as recorded, and goes on with new events', async () => {
    const dataDir = tempDataDir();
    seedV0Rows(dataDir, fixture);
    const api = await startTestService({ dataDir });
    service = api;

    const page = await api.api('GET', `/api/conversations/${id}/events?limit=100`);
    expect(page.json).toEqual({ events: fixture.v0, has_more: false });

    const stream = await openSseStream(api, id);
    await until(
      async () => stream.events(),
      (frames) => frames.some((f) => f.event === 'replay_done'),
      'the SSE replay',
    );
    stream.close();
    const replayed = stream.events().filter((f) => f.event === 'oh_event');
    expect(replayed.map((f) => JSON.parse(f.data) as V0Event)).toEqual(fixture.sse);

    const v1 = await api.api('GET', `/api/v1/events/search?conversation_id__eq=${id}&limit=100`);
    expect(v1.json).toEqual({ items: fixture.v1, next_page_id: null });
    const one = await api.api('GET', `/api/v1/events?id=${id}:3`);
    expect(one.json).toEqual([fixture.v1[3]]);

    const log = api.service.events;
    expect(sdkEvents(id, log.events(id, -1))).toEqual(fixture.sdk);

    // New events are stored as Dockhand events, after the old rows, and both read back.
    const added = log.add(
      id,
      { kind: 'status', source: 'environment', state: 'stopped', reason: '' },
      new SecretMasker([]),
    );
    expect(added.id).toBe(fixture.v0.length);
    const after = await api.api('GET', `/api/conversations/${id}/events?start_id=${added.id - 1}`);
    expect(after.json).toEqual({
      events: [
        fixture.v0.at(-1),
        {
          id: added.id,
          timestamp: added.timestamp,
          source: 'environment',
          message: '',
          observation: 'agent_state_changed',
          content: '',
          extras: { agent_state: 'stopped', reason: '' },
        },
      ],
      has_more: false,
    });
  });
});
