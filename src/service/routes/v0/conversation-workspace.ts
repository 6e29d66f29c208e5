import { posix } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ConversationPath } from '../../../shared/api/conversations';
import { DetailBody, ValidationErrorBody } from '../../../shared/api/errors';
import {
  FileListBody,
  GitChangesBody,
  GitDiffBody,
  GitDiffQuery,
  ListFilesQuery,
  MicroagentListBody,
  SelectFileBody,
  SelectFileQuery,
  UploadFilesBody,
  UploadFilesForm,
  VscodeUrlBody,
  WebHostsBody,
} from '../../../shared/api/workspace';
import { loadMicroagents, userMicroagentDirs } from '../../microagents/load-microagents';
import { microagentListing } from '../../microagents/microagent-listing';
import type { ConversationService } from '../../conversations/conversation-service';
import { resolveInWorkspace, type WorkspaceAccess } from '../../conversations/workspace-access';
import { gitChanges, gitDiff } from '../../conversations/workspace-git';
import { listWorkspaceFolder } from '../../conversations/workspace-listing';
import { openTextFile } from '../../conversations/workspace-text';
import { receiveUploads, storeUploads } from '../../conversations/workspace-upload';
import { zipFromTar } from '../../conversations/workspace-zip';
import { defineRoute, type RouteSpec } from '../../http/routes';
import { openSandboxFile } from '../../sandbox/files/file-stream';

const NOT_FOUND = { description: 'Unknown conversation', schema: DetailBody };
const NOT_RUNNING = { description: 'The conversation or its sandbox is not running', schema: DetailBody };
const OUTSIDE = { description: 'A path outside the workspace', schema: ValidationErrorBody };

/** The V0 routes on a conversation's workspace: files, uploads, the zip download, git changes, microagents. */
export function conversationWorkspaceRoutes(
  conversations: ConversationService,
  workspaces: WorkspaceAccess,
): RouteSpec[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/vscode-url',
      sandboxKey: true,
      tag: 'workspace',
      summary: 'The VS Code URL: Dockhand serves none',
      params: ConversationPath,
      responses: { 200: { description: 'No VS Code', schema: VscodeUrlBody }, 404: NOT_FOUND },
      handler: ({ params }) => {
        conversations.require(params.id);
        return { vscode_url: null };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/web-hosts',
      sandboxKey: true,
      tag: 'workspace',
      summary: "The sandbox's app ports as local URLs (none while it is not running)",
      params: ConversationPath,
      responses: { 200: { description: 'URL to port', schema: WebHostsBody }, 404: NOT_FOUND },
      handler: ({ params }) => ({ hosts: workspaces.webHosts(params.id) }),
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/microagents',
      sandboxKey: true,
      tag: 'workspace',
      summary: "The conversation's microagents: repository, user folders and built-ins",
      params: ConversationPath,
      responses: {
        200: { description: 'Microagents', schema: MicroagentListBody },
        404: NOT_FOUND,
        409: NOT_RUNNING,
      },
      handler: async ({ params }) => {
        const workspace = await workspaces.open(params.id);
        const { microagents } = await loadMicroagents({
          files: workspace.files,
          repoDir: workspace.repositoryDir,
          userDirs: userMicroagentDirs(),
        });
        return microagentListing(microagents);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/list-files',
      sandboxKey: true,
      tag: 'workspace',
      summary: 'One level of a workspace folder: folders first, ending with /',
      params: ConversationPath,
      query: ListFilesQuery,
      responses: {
        200: { description: 'Paths relative to the workspace', schema: FileListBody },
        404: { description: 'Unknown conversation or folder', schema: DetailBody },
        409: NOT_RUNNING,
        422: OUTSIDE,
      },
      handler: async ({ params, query }) => {
        const workspace = await workspaces.open(params.id);
        const folder = await resolveInWorkspace(workspace, query.path ?? '', ['query', 'path']);
        return listWorkspaceFolder(workspace, folder);
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/select-file',
      sandboxKey: true,
      tag: 'workspace',
      summary: 'A text file of the workspace',
      params: ConversationPath,
      query: SelectFileQuery,
      responses: {
        200: { description: 'Its text', schema: SelectFileBody },
        404: { description: 'Unknown conversation or file', schema: DetailBody },
        409: NOT_RUNNING,
        415: { description: 'A binary or non-UTF-8 file', schema: DetailBody },
        422: {
          description: 'A path outside the workspace, or a file over 5 MiB',
          schema: ValidationErrorBody,
        },
      },
      handler: async ({ params, query }) => {
        const workspace = await workspaces.open(params.id);
        const file = await resolveInWorkspace(workspace, query.file, ['query', 'file']);
        return { code: await openTextFile(workspace, file, query.file, ['query', 'file']) };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/api/conversations/:id/upload-files',
      sandboxKey: true,
      tag: 'workspace',
      summary: 'Upload files (multipart, repeated `files`) into the working directory, bytes unchanged',
      params: ConversationPath,
      multipartBody: UploadFilesForm,
      responses: {
        200: { description: 'Uploaded and skipped files', schema: UploadFilesBody },
        404: NOT_FOUND,
        409: NOT_RUNNING,
        413: { description: 'Over 100 MiB or 100 files', schema: DetailBody },
        422: { description: 'No files, or not a multipart body', schema: ValidationErrorBody },
      },
      handler: async ({ params, req, res }) => {
        const workspace = await workspaces.open(params.id);
        return storeUploads(workspace, await receiveUploads(req, res));
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/zip-directory',
      sandboxKey: true,
      tag: 'workspace',
      summary:
        'The working directory as workspace.zip, streamed; a hard link is a copy of its file; cut off past 4 GiB of content',
      params: ConversationPath,
      responses: {
        200: { description: 'A zip archive', contentType: 'application/zip' },
        404: NOT_FOUND,
        409: NOT_RUNNING,
      },
      handler: async ({ params, res }) => {
        const workspace = await workspaces.open(params.id);
        const archive = (await workspace.files.download(workspace.workingDir)) as Readable;
        const parent = posix.dirname(workspace.workingDir);
        const zip = zipFromTar(archive, (archivePath) =>
          openSandboxFile(workspace.files, posix.join(parent, archivePath)),
        );
        res.status(200).set({
          'Content-Type': 'application/zip',
          'Content-Disposition': 'attachment; filename="workspace.zip"',
        });
        await pipeline(zip, res);
        return undefined;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/git/changes',
      sandboxKey: true,
      tag: 'workspace',
      summary: "Files changed since HEAD in the conversation's repository",
      params: ConversationPath,
      responses: {
        200: { description: 'Changes, paths relative to the workspace', schema: GitChangesBody },
        404: { description: 'Unknown conversation, or not a git repository', schema: DetailBody },
        409: NOT_RUNNING,
      },
      handler: async ({ params }) => {
        const changes = await gitChanges(await workspaces.open(params.id));
        conversations.changedFiles.seen(params.id, changes);
        return changes;
      },
    }),
    defineRoute({
      method: 'get',
      path: '/api/conversations/:id/git/diff',
      sandboxKey: true,
      tag: 'workspace',
      summary: 'A file in the working tree and at HEAD',
      params: ConversationPath,
      query: GitDiffQuery,
      responses: {
        200: { description: 'Both versions; "" where absent', schema: GitDiffBody },
        404: { description: 'Unknown conversation, or not a git repository', schema: DetailBody },
        409: NOT_RUNNING,
        422: {
          description: 'A path outside the workspace, or a file over 5 MiB (in the worktree or at HEAD)',
          schema: ValidationErrorBody,
        },
      },
      handler: async ({ params, query }) => {
        const workspace = await workspaces.open(params.id);
        const file = await resolveInWorkspace(workspace, query.path, ['query', 'path']);
        return gitDiff(workspace, file, query.path, ['query', 'path']);
      },
    }),
  ];
}
