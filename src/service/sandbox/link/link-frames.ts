/**
 * The link's wire format, spoken with `forwarder.cjs` inside the sandbox (which spells out each frame type):
 * type (u8), stream id (u32 BE), payload length (u32 BE), payload.
 */
export const FRAME = { CONTROL: 0, OPEN: 1, DATA: 2, WINDOW: 3, END: 4, RESET: 5 } as const;
export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export const HEADER_BYTES = 9;
/** Largest payload either side sends; a larger one from the sandbox ends the link. */
export const MAX_PAYLOAD = 64 * 1024;
/**
 * Bytes the service may send on a new stream before the forwarder grants more: large, so a download is not
 * held back by the round trips of the grants (the forwarder's memory is the sandbox's).
 */
export const DOWNLOAD_WINDOW = 4 * 1024 * 1024;
/** Bytes the forwarder may send on a new stream before the service grants more: what the service may hold. */
export const UPLOAD_WINDOW = 512 * 1024;

export interface Frame {
  type: number;
  id: number;
  payload: Buffer;
}

/** A frame, or with `length` alone its header (the payload written after it). */
export function encodeFrame(
  type: FrameType,
  id: number,
  payload?: Buffer,
  length = payload?.length ?? 0,
): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + (payload?.length ?? 0));
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(length, 5);
  payload?.copy(frame, HEADER_BYTES);
  return frame;
}

export class FrameTooLarge extends Error {}

/**
 * Cuts a byte stream into frames, copying only a frame that spans chunks; refuses a payload over MAX_PAYLOAD
 * so the sandbox cannot make it buffer more.
 */
export class FrameDecoder {
  private readonly chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    while (this.buffered >= HEADER_BYTES) {
      const header = this.peek(HEADER_BYTES);
      const length = header.readUInt32BE(5);
      if (length > MAX_PAYLOAD) throw new FrameTooLarge(`A link frame of ${length} bytes`);
      if (this.buffered < HEADER_BYTES + length) break;
      const frame = this.take(HEADER_BYTES + length);
      frames.push({
        type: frame.readUInt8(0),
        id: frame.readUInt32BE(1),
        payload: frame.subarray(HEADER_BYTES),
      });
    }
    return frames;
  }

  /** The first `size` buffered bytes as one buffer (joining the first chunks when needed). */
  private peek(size: number): Buffer {
    const first = this.chunks[0] as Buffer;
    if (first.length >= size) return first;
    const parts: Buffer[] = [];
    let have = 0;
    while (have < size) {
      const chunk = this.chunks.shift() as Buffer;
      parts.push(chunk);
      have += chunk.length;
    }
    const joined = Buffer.concat(parts, have);
    this.chunks.unshift(joined);
    return joined;
  }

  private take(size: number): Buffer {
    const first = this.peek(size);
    if (first.length === size) this.chunks.shift();
    else this.chunks[0] = first.subarray(size);
    this.buffered -= size;
    return first.subarray(0, size);
  }
}

export function u16(value: number): Buffer {
  const buffer = Buffer.allocUnsafe(2);
  buffer.writeUInt16BE(value, 0);
  return buffer;
}

export function u32(value: number): Buffer {
  const buffer = Buffer.allocUnsafe(4);
  buffer.writeUInt32BE(value, 0);
  return buffer;
}
