import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  encodeFrame,
  FRAME,
  FrameDecoder,
  FrameTooLarge,
  MAX_PAYLOAD,
  u16,
  UPLOAD_WINDOW,
} from './link-frames';
import { LinkMux, type LinkStream } from './link-mux';

/** A mux whose forwarder side the test plays: `send` feeds it frames, `sent` holds what it wrote. */
function harness() {
  const fromForwarder = new PassThrough();
  const toForwarder = new PassThrough();
  const decoder = new FrameDecoder();
  const sent: { type: number; id: number; payload: Buffer }[] = [];
  toForwarder.on('data', (chunk: Buffer) => sent.push(...decoder.push(chunk)));
  const accepted: LinkStream[] = [];
  let ended: Error | null | undefined;
  const mux = new LinkMux(fromForwarder, toForwarder, {
    accepted: (_port, stream) => accepted.push(stream),
    control: () => undefined,
    ended: (error) => (ended = error),
  });
  const send = (type: (typeof FRAME)[keyof typeof FRAME], id: number, payload?: Buffer) =>
    fromForwarder.write(encodeFrame(type, id, payload));
  const tick = () => new Promise((resolve) => setImmediate(resolve));
  return { mux, send, sent, accepted, tick, ended: () => ended };
}

describe('FrameDecoder', () => {
  it('reassembles frames split anywhere, and several in one chunk', () => {
    const bytes = Buffer.concat([
      encodeFrame(FRAME.DATA, 3, Buffer.from('hello')),
      encodeFrame(FRAME.END, 3),
      encodeFrame(FRAME.WINDOW, 5, Buffer.from([0, 0, 1, 0])),
    ]);
    for (let cut = 1; cut < bytes.length; cut++) {
      const decoder = new FrameDecoder();
      const frames = [...decoder.push(bytes.subarray(0, cut)), ...decoder.push(bytes.subarray(cut))];
      expect(frames.map((frame) => [frame.type, frame.id, frame.payload.toString('hex')])).toEqual([
        [FRAME.DATA, 3, Buffer.from('hello').toString('hex')],
        [FRAME.END, 3, ''],
        [FRAME.WINDOW, 5, '00000100'],
      ]);
    }
  });

  it('refuses a frame larger than the limit before buffering it', () => {
    const header = Buffer.alloc(9);
    header.writeUInt32BE(MAX_PAYLOAD + 1, 5);
    expect(() => new FrameDecoder().push(header)).toThrow(FrameTooLarge);
  });
});

describe('LinkMux', () => {
  it('ends the link on an oversized frame from the sandbox', async () => {
    const link = harness();
    const header = Buffer.alloc(9);
    header.writeUInt32BE(2 ** 31, 5);
    link.send(FRAME.DATA, 1, undefined);
    (link.mux as unknown as { receive(chunk: Buffer): void }).receive(header);
    await link.tick();
    expect(link.ended()).toBeInstanceOf(FrameTooLarge);
  });

  it('resets a connection the sandbox opens with a service-side (even) id', async () => {
    const link = harness();
    link.send(FRAME.OPEN, 2, u16(3128));
    await link.tick();
    expect(link.accepted).toHaveLength(0);
    expect(link.sent.at(-1)).toMatchObject({ type: FRAME.RESET, id: 2 });
  });

  it('resets a stream whose sandbox side sends beyond its window', async () => {
    const link = harness();
    link.send(FRAME.OPEN, 1, u16(3128));
    await link.tick();
    const [stream] = link.accepted;
    stream?.pause();
    const failed = new Promise<Error>((resolve) => stream?.once('error', resolve));
    const piece = Buffer.alloc(MAX_PAYLOAD);
    for (let sent = 0; sent <= UPLOAD_WINDOW; sent += piece.length) link.send(FRAME.DATA, 1, piece);
    expect((await failed).message).toBe('The sandbox sent beyond the stream window');
    await link.tick();
    expect(link.sent.some((frame) => frame.type === FRAME.RESET && frame.id === 1)).toBe(true);
  });

  it('grants more window only as the service side reads', async () => {
    const link = harness();
    link.send(FRAME.OPEN, 1, u16(3128));
    await link.tick();
    const [stream] = link.accepted as [LinkStream];
    stream.pause();
    const piece = Buffer.alloc(MAX_PAYLOAD);
    for (let sent = 0; sent < UPLOAD_WINDOW; sent += piece.length) link.send(FRAME.DATA, 1, piece);
    await link.tick();
    await link.tick();
    const granted = () =>
      link.sent
        .filter((frame) => frame.type === FRAME.WINDOW && frame.id === 1)
        .reduce((sum, frame) => sum + frame.payload.readUInt32BE(0), 0);
    const whilePaused = granted();
    expect(whilePaused).toBeLessThan(UPLOAD_WINDOW);
    let read = 0;
    stream.on('data', (chunk: Buffer) => (read += chunk.length));
    stream.resume();
    await link.tick();
    await link.tick();
    expect(read).toBe(UPLOAD_WINDOW);
    expect(granted()).toBe(UPLOAD_WINDOW);
  });
});
