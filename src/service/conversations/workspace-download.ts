import type { Response } from 'express';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { httpError } from '../http/errors';
import { openSandboxFile, type OpenedFile } from '../sandbox/files/file-stream';
import { SandboxFileError } from '../sandbox/files/sandbox-files';
import type { ConversationWorkspace, WorkspacePath } from './workspace-access';

async function open(workspace: ConversationWorkspace, file: WorkspacePath): Promise<OpenedFile> {
  try {
    return await openSandboxFile(workspace.files, file.real);
  } catch (error) {
    if (!(error instanceof SandboxFileError)) throw error;
    if (error.code === 'not_found') throw httpError(404, 'File not found');
    if (error.code === 'is_directory' || error.code === 'not_file')
      throw httpError(400, 'Path is not a file');
    throw error;
  }
}

/**
 * Sends a workspace file as an attachment, of any size: its bytes flow from the sandbox's archive at the pace
 * the client reads them, so the service holds no more than the streams' buffers, and a client that stops
 * reading stops the transfer from the sandbox. 404 when nothing is there, 400 when it is not a regular file;
 * a failure once bytes have been sent cuts the connection (the response is shorter than its Content-Length).
 */
export async function sendWorkspaceFile(
  res: Response,
  workspace: ConversationWorkspace,
  file: WorkspacePath,
): Promise<void> {
  const opened = await open(workspace, file);
  res
    .status(200)
    .attachment(posix.basename(file.real))
    .type('application/octet-stream')
    .set('Content-Length', String(opened.size));
  if (res.req.method === 'HEAD') {
    opened.content.destroy(); // a HEAD answer has no body to pull the file through
    res.end();
    return;
  }
  await pipeline(opened.content, res);
}
