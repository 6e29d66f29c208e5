import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data: Buffer;
  /** The Unix mode (file type and permission bits) from the entry's external attributes. */
  mode: number;
}

const END_OF_CENTRAL_DIRECTORY = Buffer.from([0x50, 0x4b, 0x05, 0x06]);
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The entries of a zip archive, read through its central directory (stored or deflated, no zip64). */
export function readZip(zip: Buffer): ZipEntry[] {
  const end = zip.lastIndexOf(END_OF_CENTRAL_DIRECTORY);
  if (end < 0) throw new Error('Not a zip archive: no end of central directory');
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(offset) !== CENTRAL_HEADER) throw new Error(`Bad central header at ${offset}`);
    const method = zip.readUInt16LE(offset + 10);
    const compressedSize = zip.readUInt32LE(offset + 20);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const external = zip.readUInt32LE(offset + 38);
    const local = zip.readUInt32LE(offset + 42);
    if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error(`Bad local header at ${local}`);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(start, start + compressedSize);
    if (method !== 0 && method !== 8) throw new Error(`Unsupported compression method ${method}`);
    entries.push({
      name: zip.toString('utf8', offset + 46, offset + 46 + nameLength),
      data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw),
      mode: external >>> 16,
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
