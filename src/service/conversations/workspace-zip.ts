import { finished, Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { ZipFile } from 'yazl';
import type { OpenedFile } from '../sandbox/files/file-stream';

const FILE = 0o100000;
const FOLDER = 0o040000;
const SYMLINK = 0o120000;

/**
 * The most file content one zip holds (before compression), each hard link counted as the file it repeats:
 * past it the zip stops, so a workspace of sparse files or many links to one large file cannot make the
 * service read and compress without end.
 */
export const MAX_ZIP_CONTENT_BYTES = 4 * 1024 * 1024 * 1024;

/** Opens a hard-linked file by its path in the archive. */
export type OpenLinked = (archivePath: string) => Promise<OpenedFile>;

/** The entry's path below the archived folder (the archive's first component), or null for the folder itself. */
function innerName(name: string): string | null {
  const inner = name.replace(/^\.\//, '').replace(/\/+$/, '').split('/').slice(1).join('/');
  return inner || null;
}

/** Zips a folder's archive entry by entry, each file's bytes streamed through as the zip is read. */
class ZipFiller {
  private total = 0;
  /** The file being copied, destroyed when the zip's reader goes away. */
  private current: Readable | null = null;

  constructor(
    private readonly zip: ZipFile,
    private readonly openLinked: OpenLinked,
  ) {}

  stop(): void {
    this.current?.destroy();
  }

  async fill(archive: Readable): Promise<void> {
    const extract = tar.extract();
    archive.pipe(extract);
    finished(archive, (error) => error && extract.destroy(error));
    for await (const entry of extract) {
      const { header } = entry;
      const name = innerName(header.name);
      const options = { mtime: header.mtime ?? new Date(), mode: header.mode ?? 0o644 };
      if (name === null) {
        entry.resume();
      } else if (header.type === 'file' || header.type === 'contiguous-file') {
        await this.addFile(Readable.from(entry, { objectMode: false }), header.size ?? 0, name, options);
      } else if (header.type === 'directory') {
        entry.resume();
        this.zip.addEmptyDirectory(name, { ...options, mode: FOLDER | options.mode });
      } else if (header.type === 'symlink') {
        entry.resume();
        this.zip.addBuffer(Buffer.from(header.linkname ?? ''), name, { ...options, mode: SYMLINK | 0o777 });
      } else if (header.type === 'link') {
        // A hard link names an earlier entry whose bytes have already streamed past: they are read again.
        entry.resume();
        const linked = await this.openLinked(header.linkname ?? '');
        await this.addFile(linked.content, linked.size, name, options);
      } else {
        entry.resume(); // devices, FIFOs and sockets have no content
      }
    }
  }

  private async addFile(
    content: Readable,
    size: number,
    name: string,
    options: { mtime: Date; mode: number },
  ): Promise<void> {
    this.total += size;
    if (this.total > MAX_ZIP_CONTENT_BYTES) {
      content.destroy();
      throw new Error(`The workspace holds more than ${MAX_ZIP_CONTENT_BYTES} bytes to zip`);
    }
    this.current = content;
    await new Promise<void>((resolve, reject) => {
      content.once('end', resolve).once('error', reject).once('close', resolve);
      this.zip.addReadStream(content, name, { ...options, mode: FILE | options.mode, size });
    });
    this.current = null;
  }
}

/**
 * A zip of a folder from its tar archive (the archive's top entry is the folder): entries are named
 * relative to the folder; symlinks stay links; a hard link becomes a copy of its file, read again through
 * `openLinked` and counted against MAX_ZIP_CONTENT_BYTES. Bytes flow only as fast as the zip is read.
 * Destroying the zip stream stops reading the archive; past the cap the zip stream fails.
 */
export function zipFromTar(archive: Readable, openLinked: OpenLinked): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const filler = new ZipFiller(zip, openLinked);
  output.once('close', () => {
    archive.destroy();
    filler.stop();
  });
  filler.fill(archive).then(
    () => zip.end(),
    (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
