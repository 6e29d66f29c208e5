/**
 * The link's wire format, spoken with `forwarder.cjs` inside the sandbox (which spells out each frame type):
 * type (u8), stream id (u32 BE), payload length (u32 BE), payload.
 */
export const FRAME = { CONTROL: 0, OPEN: 1, DATA: 2, WINDOW: 3, END: 4, RESET: 5 } as const;
export type FrameType = (typeof FRAME)[keyof typeof FRAME];

export const HEADER_BYTES = 9;
/** Largest payload either side sends; a larger one from the sandbox ends the link. */
export const MAX_PAYLOAD = 64 * 1024;
/** Bytes a side may send on a new stream before the other grants more (both sides start with it). */
export const INITIAL_WINDOW = 256 * 1024;

export interface Frame {
  type: number;
  id: number;
  payload: Buffer;
}

export function encodeFrame(type: FrameType, id: number, payload?: Buffer): Buffer {
  const length = payload?.length ?? 0;
  const frame = Buffer.allocUnsafe(HEADER_BYTES + length);
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(id, 1);
  frame.writeUInt32BE(length, 5);
  payload?.copy(frame, HEADER_BYTES);
  return frame;
}

export class FrameTooLarge extends Error {}

/** Cuts a byte stream into frames; refuses a payload over MAX_PAYLOAD so the sandbox cannot make it buffer more. */
export class FrameDecoder {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Frame[] {
    this.pending = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    const frames: Frame[] = [];
    while (this.pending.length >= HEADER_BYTES) {
      const length = this.pending.readUInt32BE(5);
      if (length > MAX_PAYLOAD) throw new FrameTooLarge(`A link frame of ${length} bytes`);
      if (this.pending.length < HEADER_BYTES + length) break;
      frames.push({
        type: this.pending.readUInt8(0),
        id: this.pending.readUInt32BE(1),
        payload: this.pending.subarray(HEADER_BYTES, HEADER_BYTES + length),
      });
      this.pending = this.pending.subarray(HEADER_BYTES + length);
    }
    return frames;
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
