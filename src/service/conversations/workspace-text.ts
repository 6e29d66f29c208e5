import { httpError } from '../http/errors';
import { SandboxFileError } from '../sandbox/files/sandbox-files';
import {
  type ConversationWorkspace,
  type ErrorLocation,
  pathValueError,
  type WorkspacePath,
} from './workspace-access';

export const MAX_OPENED_FILE_BYTES = 5 * 1024 * 1024;
/** A NUL byte this early marks a binary file. */
const BINARY_PROBE_BYTES = 8192;

/** The text of a UTF-8 file (a BOM kept), or null when it is binary or not valid UTF-8. */
export function decodeText(bytes: Buffer): string | null {
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The 422 (at `loc`) for a file over MAX_OPENED_FILE_BYTES. */
export function tooLargeError(loc: ErrorLocation, requested: string, verb = 'open') {
  return pathValueError(loc, `File is too large to ${verb} (max ${MAX_OPENED_FILE_BYTES} bytes)`, requested);
}

/** A file's bytes, at most MAX_OPENED_FILE_BYTES (also when it grows after it was measured), else 422. */
export async function readBounded(
  workspace: ConversationWorkspace,
  file: WorkspacePath,
  requested: string,
  loc: ErrorLocation,
  verb?: string,
): Promise<Buffer> {
  try {
    return await workspace.files.read(file.real, { maxBytes: MAX_OPENED_FILE_BYTES });
  } catch (error) {
    if (error instanceof SandboxFileError && error.code === 'too_large')
      throw tooLargeError(loc, requested, verb);
    throw error;
  }
}

/**
 * A workspace file as text for an editor: 404 when it is not a file, 422 (at `loc`) over 5 MiB, 415 when it
 * is binary. Errors name the file as the client did.
 */
export async function openTextFile(
  workspace: ConversationWorkspace,
  file: WorkspacePath,
  requested: string,
  loc: ErrorLocation,
): Promise<string> {
  const info = await workspace.files.stat(file.real);
  if (!info) throw httpError(404, `File not found: ${requested}`);
  if (info.type !== 'file') throw httpError(404, `Not a file: ${requested}`);
  if (info.size > MAX_OPENED_FILE_BYTES) throw tooLargeError(loc, requested);
  const text = decodeText(await readBounded(workspace, file, requested, loc));
  if (text === null) throw httpError(415, `Unable to open binary file: ${requested}`);
  return text;
}
