import { z } from 'zod';
import {
  AppConversation,
  AppConversationBatch,
  AppConversationPage,
  AppConversationSearchQuery,
  AppConversationStartRequest,
  AppConversationStartTask,
  AppConversationStartTaskBatch,
  AppConversationStartTaskPage,
  StartTaskSearchQuery,
} from '../../../shared/api/app-conversations';
import { Count } from '../../../shared/api/common';
import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import { repeatedIds } from '../../../shared/api/fields';
import type { AppConversations } from '../../conversations/app-conversations';
import { httpError } from '../../http/errors';
import { defineRoute, type RouteSpec } from '../../http/routes';

const INVALID = { description: 'Invalid request', schema: ValidationErrorBody };
const Ids = z.object({ ids: repeatedIds() });
const CountQuery = AppConversationSearchQuery.omit({ sort_order: true, page_id: true, limit: true });
const TaskCountQuery = StartTaskSearchQuery.pick({ conversation_id__eq: true, created_at__gte: true });

/** V1 app conversations and their start tasks (api-contract §10). */
export function appConversationRoutes(app: AppConversations): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/v1/app-conversations',
      tag: 'v1',
      summary: 'Start an app conversation: answers its start task (WORKING)',
      body: AppConversationStartRequest,
      responses: {
        200: { description: 'The start task', schema: AppConversationStartTask },
        404: { description: 'Unknown sandbox or parent', schema: DetailBody },
        409: { description: 'The conversation id exists', schema: DetailBody },
        422: INVALID,
      },
      handler: ({ body }) => app.start(body),
    }),
    defineRoute({
      method: 'post',
      path: '/api/v1/app-conversations/stream-start',
      tag: 'v1',
      summary:
        'Start an app conversation and stream the start task as a JSON array of snapshots until READY or ERROR',
      body: AppConversationStartRequest,
      responses: {
        200: { description: 'A streamed JSON array of start task snapshots (AppConversationStartTask)' },
        404: { description: 'Unknown sandbox or parent', schema: DetailBody },
        409: { description: 'The conversation id exists', schema: DetailBody },
        422: INVALID,
      },
      handler: ({ body, res }) => {
        const task = app.start(body);
        res.status(200).type('application/json');
        res.write(`[${JSON.stringify(task)}`);
        const stop = app.watch(task.id, (snapshot) => {
          res.write(`,${JSON.stringify(snapshot)}`);
          if (snapshot.status === 'READY' || snapshot.status === 'ERROR') {
            stop();
            res.end(']');
          }
        });
        res.on('close', stop);
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/search',
      tag: 'v1',
      summary: 'Search app conversations',
      query: AppConversationSearchQuery,
      responses: { 200: { description: 'A page', schema: AppConversationPage }, 422: INVALID },
      handler: ({ query }) => app.search(query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/count',
      tag: 'v1',
      summary: 'Count app conversations',
      query: CountQuery,
      responses: { 200: { description: 'The count', schema: Count }, 422: INVALID },
      handler: ({ query }) => app.count(query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/start-tasks/search',
      tag: 'v1',
      summary: 'Search start tasks',
      query: StartTaskSearchQuery,
      responses: { 200: { description: 'A page', schema: AppConversationStartTaskPage }, 422: INVALID },
      handler: ({ query }) => app.searchTasks(query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/start-tasks/count',
      tag: 'v1',
      summary: 'Count start tasks',
      query: TaskCountQuery,
      responses: { 200: { description: 'The count', schema: Count }, 422: INVALID },
      handler: ({ query }) => app.countTasks(query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/start-tasks',
      tag: 'v1',
      summary: 'Start tasks by id (null for unknown ids)',
      query: Ids,
      responses: {
        200: {
          description: 'Tasks aligned with the ids',
          schema: AppConversationStartTaskBatch,
        },
        422: INVALID,
      },
      handler: ({ query }) => query.ids.map((id) => app.task(id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations',
      tag: 'v1',
      summary: 'App conversations by id (null for unknown ids)',
      query: Ids,
      responses: {
        200: {
          description: 'Conversations aligned with the ids',
          schema: AppConversationBatch,
        },
        422: INVALID,
      },
      handler: ({ query }) => query.ids.map((id) => app.find(id)),
    }),
    defineRoute({
      method: 'get',
      path: '/api/v1/app-conversations/:id',
      tag: 'v1',
      summary: 'One app conversation',
      params: z.object({ id: z.string() }),
      responses: {
        200: { description: 'The conversation', schema: AppConversation },
        404: { description: 'Unknown', schema: DetailBody },
      },
      handler: ({ params }) => {
        const found = app.find(params.id);
        if (!found) throw httpError(404, `Conversation ${params.id} not found`);
        return found;
      },
    }),
  ];
}
