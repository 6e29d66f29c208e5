import { z } from 'zod';
import { ConversationPath } from '../../../shared/api/conversations';
import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import { laxInt } from '../../../shared/api/fields';
import type { ConversationService } from '../../conversations/conversation-service';
import type { EventLog } from '../../events/event-log';
import { SseStream } from '../../events/sse-stream';
import type { SessionKey } from '../../secrets/session-key';
import { httpError } from '../../http/errors';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { validate } from '../../http/validation';
import { sseFrame } from './v0-events';

const PER_CONVERSATION = 16;
const TOTAL = 64;

const StreamQuery = z.object({ after: laxInt().pipe(z.number().min(-1)).default(-1) });
const LastEventId = z.object({ 'last-event-id': laxInt().pipe(z.number().min(-1)).optional() });

/** `GET /api/conversations/{id}/events/stream`: the stored events, then live ones, as Server-Sent Events. */
export function conversationStreamRoutes(
  conversations: ConversationService,
  events: EventLog,
  sessionKey: SessionKey,
): RouteSpec[] {
  const open = new Map<string, number>();
  let total = 0;
  return [
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events/stream',
      sandboxKey: true,
      tag: 'events',
      summary:
        'Events as Server-Sent Events: replay after `after` or Last-Event-ID, `replay_done`, then live',
      params: ConversationPath,
      query: StreamQuery,
      keyInQuery: true,
      responses: {
        200: { description: 'An event stream', contentType: 'text/event-stream' },
        404: { description: 'Unknown conversation', schema: DetailBody },
        422: { description: 'Invalid after or Last-Event-ID', schema: ValidationErrorBody },
        429: { description: 'Too many streams', schema: DetailBody },
      },
      handler: ({ params, query, req, res }) => {
        const id = params.id;
        conversations.require(id);
        const header = validate(LastEventId, { 'last-event-id': req.headers['last-event-id'] }, 'header');
        const after = header['last-event-id'] ?? query.after;
        if ((open.get(id) ?? 0) >= PER_CONVERSATION || total >= TOTAL)
          throw httpError(429, 'Too many streams');
        open.set(id, (open.get(id) ?? 0) + 1);
        total += 1;

        const stream = new SseStream(
          res,
          () => {
            follower.stop();
            stopStatus();
            stopEnd();
            stopRotate();
            open.set(id, (open.get(id) ?? 1) - 1);
            total -= 1;
          },
          sseFrame,
        );
        const follower = events.follow(id, after, stream);
        const stopStatus = conversations.onStatus(id, (payload) =>
          follower.send(() => stream.named('status_update', payload)),
        );
        const stopEnd = conversations.onEnd(id, (reason) => stream.close(reason));
        const stopRotate = sessionKey.onRotate(() => stream.close('key_rotated'));
        return undefined;
      },
    }),
  ];
}
