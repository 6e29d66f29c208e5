import { finished, Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { ZipFile } from 'yazl';

const FILE = 0o100000;
const FOLDER = 0o040000;
const SYMLINK = 0o120000;

/** The entry's path below the archived folder (the archive's first component), or null for the folder itself. */
function innerName(name: string): string | null {
  const inner = name.replace(/^\.\//, '').replace(/\/+$/, '').split('/').slice(1).join('/');
  return inner || null;
}

async function fill(
  zip: ZipFile,
  archive: Readable,
  readLinked: (archivePath: string) => Promise<Buffer>,
): Promise<void> {
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
      const content = Readable.from(entry, { objectMode: false });
      await new Promise<void>((resolve, reject) => {
        content.once('end', resolve).once('error', reject);
        zip.addReadStream(content, name, { ...options, mode: FILE | options.mode, size: header.size ?? 0 });
      });
    } else if (header.type === 'directory') {
      entry.resume();
      zip.addEmptyDirectory(name, { ...options, mode: FOLDER | options.mode });
    } else if (header.type === 'symlink') {
      entry.resume();
      zip.addBuffer(Buffer.from(header.linkname ?? ''), name, { ...options, mode: SYMLINK | 0o777 });
    } else if (header.type === 'link') {
      // A hard link names an earlier entry whose bytes have already streamed past.
      entry.resume();
      zip.addBuffer(await readLinked(header.linkname ?? ''), name, { ...options, mode: FILE | options.mode });
    } else {
      entry.resume(); // devices, FIFOs and sockets have no content
    }
  }
}

/**
 * A zip of a folder from its tar archive (the archive's top entry is the folder): entries are named
 * relative to the folder; links stay links. `readLinked` reads a hard-linked file by its path in the
 * archive. Destroying the zip stream stops reading the archive.
 */
export function zipFromTar(
  archive: Readable,
  readLinked: (archivePath: string) => Promise<Buffer>,
): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  output.once('close', () => archive.destroy());
  fill(zip, archive, readLinked).then(
    () => zip.end(),
    (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return output;
}
