import { posix } from 'node:path';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import * as tar from 'tar-stream';
import type { UploadFilesBody } from '../../shared/api/workspace';
import { HttpError, httpError } from '../http/errors';
import { ValidationFailed } from '../http/validation';
import type { FileInfo } from '../sandbox/files/sandbox-files';
import type { ConversationWorkspace } from './workspace-access';

export const MAX_UPLOAD_FILE_BYTES = 25 * 1024 * 1024;
export const MAX_UPLOAD_REQUEST_BYTES = 100 * 1024 * 1024;
export const MAX_UPLOAD_FILES = 100;
const UPLOAD_FIELD = 'files';

/** An uploaded file: its name (without any folder) and bytes, or null bytes when it was over 25 MiB. */
export interface ReceivedFile {
  name: string;
  bytes: Buffer | null;
}

function requestTooLarge(): HttpError {
  return httpError(413, `Request body too large (max ${MAX_UPLOAD_REQUEST_BYTES} bytes)`);
}

/**
 * Keeps each file in memory up to 25 MiB (a larger one is counted, not kept, and later skipped) and
 * refuses the request once its files pass 100 MiB in all.
 */
export class CappedMemoryStorage implements StorageEngine {
  private total = 0;

  _handleFile(_req: Request, file: Express.Multer.File, callback: (error?: unknown, info?: object) => void) {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (error: unknown, info?: Partial<Express.Multer.File>) => {
      if (settled) return;
      settled = true;
      callback(error, info);
    };
    file.stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      this.total += chunk.length;
      if (this.total > MAX_UPLOAD_REQUEST_BYTES) settle(requestTooLarge());
      else if (size <= MAX_UPLOAD_FILE_BYTES) chunks.push(chunk);
    });
    file.stream.on('error', (error) => settle(error));
    file.stream.on('end', () =>
      settle(null, { size, buffer: size <= MAX_UPLOAD_FILE_BYTES ? Buffer.concat(chunks) : Buffer.alloc(0) }),
    );
  }

  _removeFile(_req: Request, file: Express.Multer.File, callback: (error: Error | null) => void) {
    file.buffer = Buffer.alloc(0);
    callback(null);
  }
}

/** Limits are 413; a body that is not a readable multipart form is 422. */
function uploadError(error: unknown): unknown {
  if (error instanceof HttpError) return error;
  if (error instanceof MulterError && error.code === 'LIMIT_FILE_COUNT')
    return httpError(413, `Too many files (max ${MAX_UPLOAD_FILES})`);
  if (error instanceof MulterError && error.code.startsWith('LIMIT_')) return httpError(413, error.message);
  const reason = error instanceof Error ? error.message : String(error);
  return new ValidationFailed([
    {
      type: 'value_error',
      loc: ['body'],
      msg: `Value error, Invalid multipart body: ${reason}`,
      input: null,
    },
  ]);
}

/** Reads the repeated `files` parts (or those of `field`) of a multipart request; other parts are ignored. */
export async function receiveUploads(
  req: Request,
  res: Response,
  field = UPLOAD_FIELD,
): Promise<ReceivedFile[]> {
  if (Number(req.headers['content-length'] ?? 0) > MAX_UPLOAD_REQUEST_BYTES) throw requestTooLarge();
  const parse = multer({
    storage: new CappedMemoryStorage(),
    limits: { files: MAX_UPLOAD_FILES, fields: 100, fieldSize: 1024 * 1024 },
    defParamCharset: 'utf8',
  }).any();
  await new Promise<void>((resolve, reject) =>
    parse(req, res, (error?: unknown) => (error ? reject(uploadError(error)) : resolve())),
  );
  const files = (Array.isArray(req.files) ? req.files : []).filter((f) => f.fieldname === field);
  if (files.length === 0) {
    throw new ValidationFailed([
      { type: 'missing', loc: ['body', field], msg: 'Field required', input: null },
    ]);
  }
  return files.map((file) => ({
    name: file.originalname,
    bytes: file.size <= MAX_UPLOAD_FILE_BYTES ? file.buffer : null,
  }));
}

function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\0');
}

function skipReason(file: ReceivedFile, existing: Map<string, FileInfo>): string | null {
  if (!isPlainName(file.name)) return 'Invalid file name';
  if (file.bytes === null) return 'File too large';
  if (existing.get(file.name)?.type === 'directory') return 'A folder has this name';
  return null;
}

/**
 * Writes the files into the working directory with their bytes unchanged, replacing files (and links) of
 * the same name; new files belong to the workspace's owner, replaced ones keep their mode.
 */
export async function storeUploads(
  workspace: ConversationWorkspace,
  files: ReceivedFile[],
): Promise<UploadFilesBody> {
  const root = workspace.workingDir;
  const [listing, owner] = await Promise.all([workspace.files.list(root), workspace.files.stat(root)]);
  const existing = new Map(listing.map((info) => [info.name, info]));
  const accepted = new Map<string, Buffer>();
  const skipped: UploadFilesBody['skipped_files'] = [];
  for (const file of files) {
    const reason = skipReason(file, existing);
    if (reason !== null) skipped.push({ name: file.name, reason });
    else if (file.bytes) accepted.set(file.name, file.bytes);
  }
  if (accepted.size > 0) {
    const pack = tar.pack();
    for (const [name, bytes] of accepted) {
      const current = existing.get(name);
      pack.entry(
        {
          name,
          type: 'file',
          size: bytes.length,
          mode: current?.type === 'file' ? current.mode : 0o644,
          uid: owner?.uid ?? 0,
          gid: owner?.gid ?? 0,
          mtime: new Date(),
        },
        bytes,
      );
    }
    pack.finalize();
    await workspace.files.upload(root, Readable.from(pack, { objectMode: false }));
  }
  return {
    uploaded_files: [...accepted.keys()].map((name) => posix.join(root, name)),
    skipped_files: skipped,
  };
}
