import type { NetworkLogEntry } from '../../../shared/api/network';
import { TrueBody } from '../../../shared/api/common';
import {
  ConversationConfigBody,
  ConversationCreateRequest,
  ConversationInfo,
  ConversationList,
  ConversationListQuery,
  ConversationPath,
  ConversationStartResponse,
  EventPageBody,
  EventsQuery,
  MessageRequest,
  RenameRequest,
  TrajectoryBody,
  StartRequest,
  UserActionRequest,
} from '../../../shared/api/conversations';
import { DetailBody, StatusErrorBody, SuccessBody, ValidationErrorBody } from '../../../shared/api/errors';
import type { ConversationService } from '../../conversations/conversation-service';
import type { EventLog } from '../../events/event-log';
import type { V0Event } from '../../../shared/api/events';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { v0Page } from './v0-events';

const NOT_FOUND = { description: 'Unknown conversation', schema: DetailBody };
const NOT_RUNNING = { description: 'The conversation is not running', schema: DetailBody };

/** The V0 conversation routes: create, list, get, rename, delete, start, stop, events and input. */
export function conversationRoutes(
  conversations: ConversationService,
  events: EventLog,
  networkLog: (conversationId: string) => NetworkLogEntry[] = () => [],
): RouteSpec[] {
  return [
    defineRoute({
      method: 'post',
      path: '/api/conversations',
      tag: 'conversations',
      summary: 'Create a conversation and start it in the background',
      body: ConversationCreateRequest,
      bodyOptional: false,
      responses: {
        200: { description: 'Created; starting', schema: ConversationStartResponse },
        400: { description: 'No settings, or no LLM key for a remote model', schema: StatusErrorBody },
        409: { description: 'The id exists, or too many running conversations', schema: DetailBody },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
        503: { description: 'Docker is not available', schema: DetailBody },
      },
      handler: async ({ body }) => {
        const record = await conversations.create(body);
        return {
          status: 'ok',
          conversation_id: record.id,
          message: null,
          conversation_status: 'STARTING' as const,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations',
      tag: 'conversations',
      summary: 'List conversations, newest first',
      query: ConversationListQuery,
      responses: {
        200: { description: 'A page of conversations', schema: ConversationList },
        422: { description: 'Invalid query', schema: ValidationErrorBody },
      },
      handler: ({ query }) => conversations.list(query),
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id',
      sandboxKey: true,
      tag: 'conversations',
      summary: 'One conversation',
      params: ConversationPath,
      responses: { 200: { description: 'The conversation', schema: ConversationInfo }, 404: NOT_FOUND },
      handler: ({ params }) => conversations.info(conversations.require(params.id)),
    }),
    defineRoute({
      method: 'patch',
      path: '/api/conversations/:id',
      tag: 'conversations',
      summary: 'Rename a conversation',
      params: ConversationPath,
      body: RenameRequest,
      responses: {
        200: { description: 'Renamed', schema: TrueBody },
        404: NOT_FOUND,
        422: { description: 'Invalid title', schema: ValidationErrorBody },
      },
      handler: ({ params, body }) => {
        conversations.rename(params.id, body.title);
        return true;
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/conversations/:id',
      tag: 'conversations',
      summary: 'Delete a conversation with its events and its sandbox',
      params: ConversationPath,
      responses: { 200: { description: 'Deleted', schema: TrueBody }, 404: NOT_FOUND },
      handler: async ({ params }) => {
        await conversations.delete(params.id);
        return true;
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/start',
      sandboxKey: true,
      tag: 'conversations',
      summary: 'Start a stopped conversation (idempotent)',
      params: ConversationPath,
      body: StartRequest,
      responses: {
        200: { description: 'Starting', schema: ConversationStartResponse },
        400: { description: 'No settings, or no LLM key for a remote model', schema: StatusErrorBody },
        404: NOT_FOUND,
        409: { description: 'Too many running conversations', schema: DetailBody },
        422: { description: 'Invalid request', schema: ValidationErrorBody },
        503: { description: 'Docker is not available', schema: DetailBody },
      },
      handler: async ({ params }) => {
        await conversations.start(params.id);
        return {
          status: 'ok',
          conversation_id: params.id,
          message: null,
          conversation_status: 'STARTING' as const,
        };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/stop',
      sandboxKey: true,
      tag: 'conversations',
      summary: 'Stop a conversation; its sandbox idles',
      params: ConversationPath,
      responses: { 200: { description: 'Stopped', schema: ConversationStartResponse }, 404: NOT_FOUND },
      handler: async ({ params }) => {
        const wasRunning = await conversations.stop(params.id);
        return {
          status: 'ok',
          conversation_id: params.id,
          message: wasRunning ? 'Conversation stopped successfully' : 'Conversation was not running',
          conversation_status: 'STOPPED' as const,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events',
      sandboxKey: true,
      tag: 'events',
      summary: 'A page of events',
      params: ConversationPath,
      query: EventsQuery,
      responses: {
        200: { description: 'Events', schema: EventPageBody },
        404: NOT_FOUND,
        422: { description: 'Invalid query', schema: ValidationErrorBody },
      },
      handler: ({ params, query }) => {
        conversations.require(params.id);
        const endId = query.end_id ?? (query.reverse ? events.lastId(params.id) : undefined);
        return v0Page(
          events.page(params.id, {
            startId: query.start_id,
            endId,
            reverse: query.reverse,
            limit: query.limit,
          }),
        );
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/events',
      sandboxKey: true,
      tag: 'events',
      summary:
        'Send a user action: a message, an agent state change (confirm, reject, pause, stop), or a command',
      params: ConversationPath,
      body: UserActionRequest,
      responses: {
        200: { description: 'Accepted', schema: SuccessBody },
        404: NOT_FOUND,
        409: NOT_RUNNING,
        422: { description: 'Invalid action', schema: ValidationErrorBody },
      },
      handler: async ({ params, body }) => {
        await conversations.userAction(params.id, body);
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/message',
      sandboxKey: true,
      tag: 'events',
      summary: 'Send a user message',
      params: ConversationPath,
      body: MessageRequest,
      responses: {
        200: { description: 'Accepted', schema: SuccessBody },
        404: NOT_FOUND,
        409: NOT_RUNNING,
        422: { description: 'Invalid message', schema: ValidationErrorBody },
      },
      handler: ({ params, body }) => {
        conversations.sendMessage(params.id, body.message, body.image_urls ?? []);
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/config',
      sandboxKey: true,
      tag: 'conversations',
      summary: 'Runtime and session ids',
      params: ConversationPath,
      responses: {
        200: {
          description: 'Ids',
          schema: ConversationConfigBody,
        },
        404: NOT_FOUND,
      },
      handler: ({ params }) => ({
        runtime_id: conversations.require(params.id).sandboxId,
        session_id: params.id,
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/trajectory',
      sandboxKey: true,
      tag: 'events',
      summary: "Every non-hidden event, for export, with the sandbox's network log (a Dockhand extension)",
      params: ConversationPath,
      responses: {
        200: {
          description: 'The trajectory',
          schema: TrajectoryBody,
        },
        404: NOT_FOUND,
      },
      handler: ({ params }) => {
        conversations.require(params.id);
        const all = events.after(params.id, -1);
        const hidden = (e: V0Event) => e.args?.hidden === true || e.extras?.hidden === true;
        return { trajectory: all.filter((e) => !hidden(e)), network_log: networkLog(params.id) };
      },
    }),
  ];
}
