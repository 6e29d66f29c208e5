import { useEffect, useState, useSyncExternalStore } from 'react';
import { EventPageBody } from '../../../shared/api/conversations';
import { V0Event } from '../../../shared/api/events';
import { useApi } from '../api/ApiProvider';
import { useRefreshConversations } from '../api/conversation-queries';
import { followEvents, type FeedMode } from './event-feed';
import { EventStore } from './event-store';
import { FetchEventSource } from './fetch-event-source';

const PAGE_LIMIT = 100;
const EventPage = EventPageBody.extend({ events: V0Event.array() });

/**
 * The events of a conversation as they arrive, from the SSE stream or, when it is not available, by
 * polling. `ended` names why no more will come (`deleted`). `startingNote` is the latest word on getting
 * its sandbox (e.g. an image pull or build, which may take minutes), from the stream's status updates.
 */
export function useConversationEvents(conversationId: string) {
  const api = useApi();
  const refresh = useRefreshConversations();
  const [store] = useState(() => new EventStore());
  const [mode, setMode] = useState<FeedMode>('loading');
  const [ended, setEnded] = useState<string | null>(null);
  const [startingNote, setStartingNote] = useState<string | null>(null);
  const events = useSyncExternalStore(store.subscribe, store.getSnapshot);

  useEffect(() => {
    const path = `/api/conversations/${encodeURIComponent(conversationId)}/events`;
    // Stored events replay first, shown all at once; only live changes are worth refreshing the header for.
    let live = false;
    store.hold();
    return followEvents(
      {
        openStream: (after) => {
          const stream = api.streamRequest(`${path}/stream`, { after: String(after) });
          return new FetchEventSource(stream.url, stream.headers);
        },
        fetchPage: (startId) => api.get(`${path}?start_id=${startId}&limit=${PAGE_LIMIT}`, EventPage),
        lastId: () => store.lastId,
      },
      {
        events: (incoming) => {
          store.add(incoming);
          // The header shows status and agent state from the conversation itself.
          if (live && incoming.some((event) => event.observation === 'agent_state_changed')) void refresh();
        },
        status: (payload) => {
          if (payload.id === 'STATUS$STARTING_RUNTIME') setStartingNote(payload.message ?? null);
          void refresh();
        },
        mode: (next) => {
          live = next !== 'loading';
          if (live) store.release();
          setMode(next);
        },
        ended: setEnded,
      },
    );
  }, [api, conversationId, store, refresh]);

  return { events, mode, ended, startingNote };
}
