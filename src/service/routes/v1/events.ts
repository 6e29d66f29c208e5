import { z } from 'zod';
import { ValidationErrorBody } from '../../../shared/api/errors';
import { Count } from '../../../shared/api/common';
import { pageLimit, repeatedIds } from '../../../shared/api/fields';
import { V1_EVENT_KINDS, V1EventBatch, V1EventPage } from '../../../shared/api/v1-events';
import { utcIso } from '../../conversations/app-conversations';
import { decodeCursor, encodeCursor } from '../../http/page-cursor';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { findEvent, searchEvents } from '../../events/event-search';
import { v1Event } from './v1-events';
import type { Db } from '../../storage/database';

const datetime = z.iso.datetime({ offset: true, local: true });
const Filters = z.object({
  conversation_id__eq: z.string().optional(),
  kind__eq: z.enum(V1_EVENT_KINDS).optional(),
  timestamp__gte: datetime.optional(),
  timestamp__lt: datetime.optional(),
});
const SearchQuery = Filters.extend({
  sort_order: z.enum(['TIMESTAMP', 'TIMESTAMP_DESC']).default('TIMESTAMP'),
  page_id: z.string().optional(),
  limit: pageLimit(100),
});
const INVALID = { description: 'Invalid query', schema: ValidationErrorBody };

/** Events of every conversation (or one) as V1 events, filtered and ordered by timestamp. */
function search(db: Db, query: z.infer<typeof Filters> & { sort_order?: string }) {
  const found = searchEvents(db, {
    conversationId: query.conversation_id__eq,
    timestampGte: utcIso(query.timestamp__gte),
    timestampLt: utcIso(query.timestamp__lt),
    descending: query.sort_order === 'TIMESTAMP_DESC',
  }).map(({ conversationId, event }) => v1Event(conversationId, event));
  return query.kind__eq ? found.filter((e) => e.kind === query.kind__eq) : found;
}

/** One V1 event by its `<conversation id>:<event id>` id, or null. */
function byId(db: Db, id: string) {
  const match = /^(.+):(\d+)$/.exec(id);
  const conversationId = match?.[1];
  if (conversationId === undefined) return null;
  const event = findEvent(db, conversationId, Number(match?.[2]));
  return event && v1Event(conversationId, event);
}

/** V1 events across conversations (api-contract §13): the V0 events in a V1 envelope (`v1-events.ts`). */
export function v1EventRoutes(db: Db): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/events/search',
      tag: 'v1',
      summary: 'Search events of every conversation, or of one',
      query: SearchQuery,
      responses: {
        200: {
          description: 'A page',
          schema: V1EventPage,
        },
        422: INVALID,
      },
      handler: ({ query }) => {
        const offset = query.page_id ? Number(decodeCursor(query.page_id, 1)[0]) : 0;
        const matches = search(db, query);
        const end = offset + query.limit;
        return {
          items: matches.slice(offset, end),
          next_page_id: matches.length > end ? encodeCursor([String(end)]) : null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/events/count',
      tag: 'v1',
      summary: 'Count events',
      query: Filters,
      responses: { 200: { description: 'The count', schema: Count }, 422: INVALID },
      handler: ({ query }) => search(db, query).length,
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/events',
      tag: 'v1',
      summary: 'Events by `<conversation id>:<event id>` (null for unknown ids)',
      query: z.object({ id: repeatedIds() }),
      responses: {
        200: { description: 'Events aligned with the ids', schema: V1EventBatch },
        422: INVALID,
      },
      handler: ({ query }) => query.id.map((id) => byId(db, id)),
    }),
  ];
}
