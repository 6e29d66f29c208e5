/**
 * The text of a file as the editor works on it: decoded, with LF line ends, plus what is needed to write it
 * back the way it was (encoding, byte-order mark, CRLF).
 */
export interface TextFile {
  text: string;
  encoding: 'utf8' | 'utf16le' | 'utf16be';
  bom: boolean;
  crlf: boolean;
}

const BINARY_PROBE_BYTES = 8192;

function isUtf16(bytes: Buffer): 'utf16le' | 'utf16be' | null {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return null;
}

/** A NUL byte in the first 8 KiB of a file that is not UTF-16 means binary. */
export function looksBinary(bytes: Buffer): boolean {
  return !isUtf16(bytes) && bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

function swapBytes(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  return copy.length % 2 === 0 ? copy.swap16() : copy;
}

export function decodeText(bytes: Buffer): TextFile {
  const utf16 = isUtf16(bytes);
  let text: string;
  let bom: boolean;
  if (utf16) {
    bom = true;
    const body = bytes.subarray(2);
    text = (utf16 === 'utf16le' ? body : swapBytes(body)).toString('utf16le');
  } else {
    bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
    text = bytes.subarray(bom ? 3 : 0).toString('utf8');
  }
  const crlf = text.includes('\r\n');
  return { text: crlf ? text.replace(/\r\n/g, '\n') : text, encoding: utf16 ?? 'utf8', bom, crlf };
}

export function encodeText(file: TextFile, text: string): Buffer {
  const withEnds = file.crlf ? text.replace(/\n/g, '\r\n') : text;
  if (file.encoding === 'utf8') {
    const body = Buffer.from(withEnds, 'utf8');
    return file.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
  }
  const le = Buffer.from(withEnds, 'utf16le');
  return file.encoding === 'utf16le'
    ? Buffer.concat([Buffer.from([0xff, 0xfe]), le])
    : Buffer.concat([Buffer.from([0xfe, 0xff]), swapBytes(le)]);
}

/** A new file: UTF-8, LF. */
export function newTextFile(): TextFile {
  return { text: '', encoding: 'utf8', bom: false, crlf: false };
}

/** Lines numbered like `cat -n`, starting at `first`. */
export function catN(lines: string[], first = 1): string {
  return lines.map((line, i) => `${String(first + i).padStart(6)}\t${line}`).join('\n');
}
