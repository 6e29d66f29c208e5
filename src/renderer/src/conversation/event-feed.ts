import { z } from 'zod';
import { V0Event } from '../../../shared/api/events';
import { isApiError } from '../api/api-error';
import { asV0Event } from './event-shape';

/** A status payload of the stream: runtime status, title change or error (not stored as an event). */
export const StatusPayload = z
  .object({
    status_update: z.literal(true),
    type: z.string(),
    id: z.string().optional(),
    message: z.string().optional(),
    conversation_title: z.string().optional(),
  })
  .loose();
export type StatusPayload = z.infer<typeof StatusPayload>;

const ReplayDone = z.object({ last_event_id: z.number().int() });
const End = z.object({ reason: z.string() });

/** How events arrive: `loading` until the stored ones are in, then `stream` or, when it failed, `polling`. */
export type FeedMode = 'loading' | 'stream' | 'polling';

/** The part of EventSource (or FetchEventSource) the feed uses, so tests can stand in for it. */
export interface StreamSource {
  readonly readyState: number;
  addEventListener(type: string, listener: (event: { data: string }) => void): void;
  onerror: ((event: Event) => void) | null;
  close(): void;
}

export interface EventPage {
  events: V0Event[];
  has_more: boolean;
}

export interface FeedSources {
  /** Opens `GET …/events/stream?after=<after>`. */
  openStream(after: number): StreamSource;
  /** `GET …/events?start_id=<startId>&limit=100`. */
  fetchPage(startId: number): Promise<EventPage>;
  /** The last event id received so far (-1 for none). */
  lastId(): number;
}

export interface FeedHandlers {
  events(events: V0Event[]): void;
  status(payload: StatusPayload): void;
  mode(mode: FeedMode): void;
  /** The conversation is gone (`deleted`) or the key changed (`key_rotated`): nothing more will come. */
  ended(reason: string): void;
}

export interface FeedTimers {
  wait(ms: number): Promise<void>;
}

const CLOSED = 2;
export const POLL_INTERVAL_MS = 1000;

const realTimers: FeedTimers = {
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

function parsed<S extends z.ZodType>(schema: S, data: string): z.output<S> | null {
  try {
    const result = schema.safeParse(JSON.parse(data));
    return result.success ? result.data : null;
  } catch {
    return null;
  }
}

function parsedEvent(data: string): V0Event | null {
  try {
    return asV0Event(JSON.parse(data));
  } catch {
    return null;
  }
}

/**
 * Follows a conversation's events: the SSE stream (replay after the last id held, then live), and when the
 * stream cannot be opened or is closed for good, a poll of the events route every second. Returns the
 * function that stops following.
 */
export function followEvents(
  sources: FeedSources,
  handlers: FeedHandlers,
  timers: FeedTimers = realTimers,
): () => void {
  let stopped = false;
  let stream: StreamSource | null = null;

  const end = (reason: string) => {
    stopped = true;
    stream?.close();
    handlers.ended(reason);
  };

  async function catchUp(): Promise<void> {
    for (;;) {
      const page = await sources.fetchPage(sources.lastId() + 1);
      if (stopped) return;
      handlers.events(page.events);
      if (!page.has_more || page.events.length === 0) return;
    }
  }

  async function poll(): Promise<void> {
    let caughtUp = false;
    while (!stopped) {
      try {
        await catchUp();
        if (!caughtUp && !stopped) handlers.mode('polling');
        caughtUp = true;
      } catch (error) {
        if (isApiError(error, 404)) {
          if (!stopped) end('deleted');
          return;
        }
        // Anything else (the service restarting, a dropped connection) is retried on the next tick.
      }
      if (!stopped) await timers.wait(POLL_INTERVAL_MS);
    }
  }

  try {
    stream = sources.openStream(sources.lastId());
  } catch {
    stream = null;
  }
  if (stream) {
    const source = stream;
    source.addEventListener('oh_event', (message) => {
      const event = parsedEvent(message.data);
      if (event && !stopped) handlers.events([event]);
    });
    source.addEventListener('status_update', (message) => {
      const payload = parsed(StatusPayload, message.data);
      if (payload && !stopped) handlers.status(payload);
    });
    source.addEventListener('replay_done', (message) => {
      if (parsed(ReplayDone, message.data) && !stopped) handlers.mode('stream');
    });
    source.addEventListener('end', (message) => {
      if (!stopped) end(parsed(End, message.data)?.reason ?? 'deleted');
    });
    // EventSource reconnects by itself (with Last-Event-ID) after a dropped connection; it gives up only
    // when the answer is not a stream at all (a 404, an older service without the route): then poll.
    source.onerror = () => {
      if (stopped || source.readyState !== CLOSED) return;
      source.close();
      stream = null;
      void poll();
    };
  } else {
    void poll();
  }

  return () => {
    stopped = true;
    stream?.close();
  };
}
