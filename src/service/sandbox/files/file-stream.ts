import { posix } from 'node:path';
import { finished, Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { SandboxFileError, type SandboxFiles } from './sandbox-files';
import { sandboxPath } from './sandbox-path';

const MAX_LINK_HOPS = 40;

/** A sandbox file being read: its size as archived, and its bytes as they arrive. */
export interface OpenedFile {
  size: number;
  /** Pulls from the sandbox only as fast as it is read; destroying it ends the archive transfer. */
  content: Readable;
}

interface ArchiveEntry {
  header: tar.Header;
  stream: AsyncIterable<unknown>;
}

/** The first entry of a tar archive, its bytes not yet read; the archive stops when the entry's stream ends. */
function firstEntry(archive: Readable, path: string): Promise<ArchiveEntry> {
  return new Promise((resolve, reject) => {
    const extract = tar.extract();
    extract.once('entry', (header, stream) => resolve({ header, stream }));
    extract.once('error', reject);
    extract.once('finish', () => reject(new SandboxFileError('failed', `The archive of ${path} is empty`)));
    archive.once('error', (error: Error) => extract.destroy(error));
    archive.pipe(extract);
  });
}

/**
 * Opens a file of the sandbox, following symlinks, from its archive (`download`): nothing is held beyond the
 * streams' own buffers, whatever the file's size. A directory is `is_directory`, a device, FIFO or socket
 * `not_file`.
 */
export async function openSandboxFile(
  files: Pick<SandboxFiles, 'download'>,
  path: string,
): Promise<OpenedFile> {
  let target = sandboxPath(path);
  for (let hop = 0; hop < MAX_LINK_HOPS; hop++) {
    const archive = (await files.download(target)) as Readable;
    let entry: ArchiveEntry;
    try {
      entry = await firstEntry(archive, path);
    } catch (error) {
      archive.destroy();
      throw error;
    }
    const { header, stream } = entry;
    if (header.type === 'file' || header.type === 'contiguous-file') {
      const content = Readable.from(stream, { objectMode: false });
      finished(content, () => archive.destroy()); // a directory's archive would otherwise stream the whole tree
      return { size: header.size ?? 0, content };
    }
    archive.destroy();
    if (header.type === 'symlink' && header.linkname) {
      target = posix.resolve(posix.dirname(target), header.linkname);
    } else if (header.type === 'directory') {
      throw new SandboxFileError('is_directory', `${path} is a directory`);
    } else {
      throw new SandboxFileError('not_file', `${path} is not a regular file`);
    }
  }
  throw new SandboxFileError('failed', `${path}: too many levels of symbolic links`);
}

/**
 * All of a stream's bytes, counted as they arrive: past `maxBytes` the stream is destroyed and the read
 * refused with `too_large`, so a file that grows while it is read is caught too.
 */
export async function readLimited(stream: Readable, maxBytes: number, path: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw tooLarge(path, maxBytes);
      chunks.push(chunk);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(chunks);
}

/** The bytes of a sandbox file, at most `maxBytes`: a larger one is refused from its size before any is read. */
export async function readSandboxFile(
  files: Pick<SandboxFiles, 'download'>,
  path: string,
  maxBytes: number,
): Promise<Buffer> {
  const file = await openSandboxFile(files, path);
  if (file.size > maxBytes) {
    file.content.destroy();
    throw tooLarge(path, maxBytes);
  }
  return readLimited(file.content, maxBytes, path);
}

export function tooLarge(path: string, maxBytes: number): SandboxFileError {
  return new SandboxFileError('too_large', `${path} is larger than ${maxBytes} bytes`);
}
