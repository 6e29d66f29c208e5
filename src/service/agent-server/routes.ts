import { posix } from 'node:path';
import { z } from 'zod';
import {
  AgentServerConversationInfo,
  AgentServerVscodeUrl,
  ConfirmationResponseRequest,
  EventIdPath,
  EventsSocketQuery,
  SandboxPathParam,
  SandboxPathQuery,
  SdkEvent,
  SdkEventBatch,
  SdkEventFilters,
  SdkEventPage,
  SdkEventSearchQuery,
  SdkGitChange,
  SdkGitChangeList,
  SdkGitDiff,
  SendMessageRequest,
  Success,
  UploadFileForm,
} from '../../shared/api/agent-server';
import { Count } from '../../shared/api/common';
import { ConversationPath } from '../../shared/api/conversations';
import { DetailBody, ValidationErrorBody } from '../../shared/api/errors';
import { repeatedIds } from '../../shared/api/fields';
import type { GitChange } from '../../shared/api/workspace';
import { utcIso } from '../conversations/app-conversations';
import {
  type ConversationWorkspace,
  pathValueError,
  resolveInWorkspace,
} from '../conversations/workspace-access';
import { gitChanges, gitDiff } from '../conversations/workspace-git';
import { sendWorkspaceFile } from '../conversations/workspace-download';
import { receiveUploads } from '../conversations/workspace-upload';
import { HttpError, httpError } from '../http/errors';
import { decodeCursor, encodeCursor } from '../http/page-cursor';
import { defineRoute, type RouteSpec } from '../http/routes';
import type { SandboxConversations } from './backend';

const NOT_FOUND = { description: 'Not a conversation of this sandbox', schema: DetailBody };
const CONFLICT = { description: 'The conversation is not in a state for this', schema: DetailBody };
const INVALID = { description: 'Invalid request', schema: ValidationErrorBody };
const NOT_RUNNING = { description: 'No conversation runs in the sandbox', schema: DetailBody };
const TAG = 'agent-server';

const SDK_GIT_STATUS: Record<GitChange['status'], z.infer<typeof SdkGitChange>['status']> = {
  A: 'ADDED',
  D: 'DELETED',
  M: 'UPDATED',
  U: 'UPDATED',
  R: 'MOVED',
};

type Filters = z.infer<typeof SdkEventFilters>;

function bodyText(event: SdkEvent): string {
  return JSON.stringify(event).toLowerCase();
}

function matches(event: SdkEvent, filters: Filters): boolean {
  const gte = utcIso(filters.timestamp__gte);
  const lt = utcIso(filters.timestamp__lt);
  return (
    (!filters.kind || event.kind === filters.kind) &&
    (!filters.source || event.source === filters.source) &&
    (!filters.body || bodyText(event).includes(filters.body.toLowerCase())) &&
    (!gte || event.timestamp >= gte) &&
    (!lt || event.timestamp < lt)
  );
}

/** A client's absolute sandbox path (the path form drops the leading slash) as a workspace path, else 422. */
async function inWorkspace(workspace: ConversationWorkspace, path: string, loc: 'query' | 'path') {
  const absolute = posix.normalize(path.startsWith('/') ? path : `/${path}`);
  const relative = posix.relative(workspace.workingDir, absolute);
  if (relative === '..' || relative.startsWith('../')) {
    throw pathValueError([loc, 'path'], `Path must be inside ${workspace.workingDir}`, path);
  }
  return resolveInWorkspace(workspace, relative, [loc, 'path']);
}

/** What changed in the git repository at `path`, paths relative to it; none where it is not a repository. */
async function changesAt(workspace: ConversationWorkspace, path: string, loc: 'query' | 'path') {
  const folder = await inWorkspace(workspace, path, loc);
  try {
    const changes = await gitChanges({ ...workspace, repositoryDir: folder.real });
    return changes.map((change) => ({
      status: SDK_GIT_STATUS[change.status],
      path: posix.relative(folder.relative, change.path),
    }));
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return [];
    throw error;
  }
}

/** A file now and at HEAD; null for both where it is in no repository. */
async function diffAt(workspace: ConversationWorkspace, path: string, loc: 'query' | 'path') {
  const file = await inWorkspace(workspace, path, loc);
  try {
    return await gitDiff({ ...workspace, repositoryDir: posix.dirname(file.real) }, file, path, [
      loc,
      'path',
    ]);
  } catch (error) {
    if (error instanceof HttpError && error.status === 404) return { modified: null, original: null };
    throw error;
  }
}

async function upload(backend: SandboxConversations, path: string, loc: 'query' | 'path', input: RouteInput) {
  const workspace = await backend.volume();
  const target = await inWorkspace(workspace, path, loc);
  const [file] = await receiveUploads(input.req, input.res, 'file');
  if (!file?.bytes) throw httpError(413, 'File too large');
  if ((await workspace.files.stat(target.real))?.type === 'directory')
    throw httpError(400, 'Path is a directory');
  await workspace.files.write(target.real, file.bytes);
  return { success: true as const };
}

async function download(
  backend: SandboxConversations,
  path: string,
  loc: 'query' | 'path',
  input: RouteInput,
) {
  const workspace = await backend.workspace();
  await sendWorkspaceFile(input.res, workspace, await inWorkspace(workspace, path, loc));
  return undefined;
}

type RouteInput = Parameters<RouteSpec['handler']>[0];

/** Which stored events to send when the socket opens. */
export type ResendQuery = z.infer<typeof EventsSocketQuery>;

/**
 * The REST calls of the agent-server protocol on one sandbox's endpoint (shapes of the upstream
 * `openhands-agent-server` routers), plus the events socket's handshake route.
 */
export function agentServerRoutes(backend: SandboxConversations): RouteSpec[] {
  const fileRoutes = (
    method: 'get' | 'post',
    path: string,
    summary: string,
    run: (path: string, loc: 'query' | 'path', input: RouteInput) => Promise<unknown>,
    responses: RouteSpec['responses'],
    multipart = false,
  ) => [
    defineRoute({
      method,
      path,
      tag: TAG,
      summary: `${summary} (absolute path in \`path\`)`,
      query: SandboxPathQuery,
      ...(multipart ? { multipartBody: UploadFileForm } : {}),
      responses,
      handler: (input) => run(input.query.path, 'query', input),
    }),
    defineRoute({
      method,
      path: `${path}/*path`,
      tag: TAG,
      summary: `${summary} (absolute path in the URL)`,
      params: z.object({
        path: z
          .array(z.string())
          .transform((parts) => parts.join('/'))
          .pipe(SandboxPathParam.shape.path),
      }),
      ...(multipart ? { multipartBody: UploadFileForm } : {}),
      responses,
      handler: (input) => run(input.params.path, 'path', input),
    }),
  ];

  return [
    defineRoute({
      method: 'get',
      path: '/sockets/events/:id',
      tag: TAG,
      // These clients put the sandbox key in the handshake's query, as a browser websocket cannot send headers.
      keyInQuery: true,
      summary:
        'The events websocket: the state, then the stored events (`resend_all=true` or `resend_mode=all|since`), ' +
        'then live ones; a client sends SDK messages (`{"role":"user","content":[...]}`) over it',
      params: ConversationPath,
      query: EventsSocketQuery,
      responses: {
        101: { description: 'Switching to the websocket protocol' },
        404: NOT_FOUND,
        426: { description: 'Not a websocket handshake', schema: DetailBody },
      },
      handler: ({ params, query, req }) => {
        backend.conversation(params.id);
        if (req.headers.upgrade?.toLowerCase() !== 'websocket') throw httpError(426, 'Upgrade Required');
        backend.openSocket(params.id, query, req);
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id',
      tag: TAG,
      summary: 'Conversation info: execution status, confirmation policy, workspace',
      params: ConversationPath,
      responses: {
        200: { description: 'The conversation', schema: AgentServerConversationInfo },
        404: NOT_FOUND,
      },
      handler: ({ params }) => backend.info(params.id),
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events/search',
      tag: TAG,
      summary: 'Search the conversation events (SDK schema)',
      params: ConversationPath,
      query: SdkEventSearchQuery,
      responses: { 200: { description: 'A page', schema: SdkEventPage }, 404: NOT_FOUND, 422: INVALID },
      handler: ({ params, query }) => {
        const offset = query.page_id ? Number(decodeCursor(query.page_id, 1)[0]) : 0;
        const found = backend.events(params.id).filter((event) => matches(event, query));
        if (query.sort_order === 'TIMESTAMP_DESC') found.reverse();
        const end = offset + query.limit;
        return {
          items: found.slice(offset, end),
          next_page_id: found.length > end ? encodeCursor([String(end)]) : null,
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events/count',
      tag: TAG,
      summary: 'Count the conversation events (what `resend_all` sends)',
      params: ConversationPath,
      query: SdkEventFilters,
      responses: {
        200: { description: 'The count', schema: Count },
        404: NOT_FOUND,
        422: INVALID,
      },
      handler: ({ params, query }) =>
        backend.events(params.id).filter((event) => matches(event, query)).length,
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events/:event_id',
      tag: TAG,
      summary: 'One event',
      params: EventIdPath,
      responses: { 200: { description: 'The event', schema: SdkEvent }, 404: NOT_FOUND },
      handler: ({ params }) => {
        const event = backend.events(params.id).find((e) => e.id === params.event_id);
        if (!event) throw httpError(404, 'Not Found');
        return event;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/events',
      tag: TAG,
      summary: 'Events by id (repeated `event_ids`), null for unknown ones',
      params: ConversationPath,
      query: z.object({ event_ids: repeatedIds() }),
      responses: {
        200: { description: 'Events aligned with the ids', schema: SdkEventBatch },
        404: NOT_FOUND,
        422: INVALID,
      },
      handler: ({ params, query }) => {
        const byId = new Map(backend.events(params.id).map((event) => [event.id, event]));
        return query.event_ids.map((id) => byId.get(id) ?? null);
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/events',
      tag: TAG,
      summary: 'Send a message (SendMessageRequest); the agent acts on it at once, whatever `run` says',
      params: ConversationPath,
      body: SendMessageRequest,
      responses: { 200: { description: 'Sent', schema: Success }, 404: NOT_FOUND, 409: CONFLICT },
      handler: ({ params, body }) => {
        backend.sendMessage(params.id, body);
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/events/respond_to_confirmation',
      tag: TAG,
      summary: 'Accept or reject the action waiting for confirmation',
      params: ConversationPath,
      body: ConfirmationResponseRequest,
      responses: { 200: { description: 'Answered', schema: Success }, 404: NOT_FOUND, 409: CONFLICT },
      handler: async ({ params, body }) => {
        await backend.changeState(
          params.id,
          body.accept ? 'user_confirmed' : 'user_rejected',
          body.accept ? '' : body.reason,
        );
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/pause',
      tag: TAG,
      summary: 'Pause the agent after its current step',
      params: ConversationPath,
      responses: { 200: { description: 'Paused', schema: Success }, 404: NOT_FOUND, 409: CONFLICT },
      handler: async ({ params }) => {
        await backend.changeState(params.id, 'paused');
        return { success: true as const };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/run',
      tag: TAG,
      summary: 'Run the agent (409 when it already runs)',
      params: ConversationPath,
      responses: { 200: { description: 'Running', schema: Success }, 404: NOT_FOUND, 409: CONFLICT },
      handler: async ({ params }) => {
        if (backend.executionStatus(params.id) === 'running') {
          throw httpError(409, 'Conversation already running. Wait for completion or pause first.');
        }
        await backend.changeState(params.id, 'running');
        return { success: true as const };
      },
    }),
    ...fileRoutes(
      'get',
      '/api/git/changes',
      'Files changed in the git repository at a path',
      async (path, loc) => changesAt(await backend.workspace(), path, loc),
      {
        200: { description: 'Changes, paths relative to the repository', schema: SdkGitChangeList },
        409: NOT_RUNNING,
        422: INVALID,
      },
    ),
    ...fileRoutes(
      'get',
      '/api/git/diff',
      'A file now and at HEAD',
      async (path, loc) => diffAt(await backend.workspace(), path, loc),
      { 200: { description: 'Both versions', schema: SdkGitDiff }, 409: NOT_RUNNING, 422: INVALID },
    ),
    ...fileRoutes(
      'post',
      '/api/file/upload',
      'Upload a file (multipart part `file`) into the sandbox volume (`/workspace`)',
      (path, loc, input) => upload(backend, path, loc, input),
      {
        200: { description: 'Stored', schema: Success },
        400: { description: 'The path is a directory', schema: DetailBody },
        409: NOT_RUNNING,
        413: { description: 'Over 25 MiB', schema: DetailBody },
        422: INVALID,
      },
      true,
    ),
    ...fileRoutes(
      'get',
      '/api/file/download',
      'Download a file of the workspace',
      (path, loc, input) => download(backend, path, loc, input),
      {
        200: {
          description: 'Its bytes, any size, streamed from the sandbox as the client reads them',
          contentType: 'application/octet-stream',
        },
        400: { description: 'Not a file', schema: DetailBody },
        404: { description: 'No such file', schema: DetailBody },
        409: NOT_RUNNING,
        422: INVALID,
      },
    ),
    defineRoute({
      method: 'get',
      path: '/api/vscode/url',
      tag: TAG,
      summary: 'The VS Code URL: Dockhand sandboxes run none',
      responses: { 200: { description: 'Not available', schema: AgentServerVscodeUrl } },
      handler: () => ({ url: null }),
    }),
  ];
}
