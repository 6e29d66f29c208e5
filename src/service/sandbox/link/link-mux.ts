import { Duplex, type Readable, type Writable } from 'node:stream';
import {
  encodeFrame,
  FRAME,
  FrameDecoder,
  type FrameType,
  DOWNLOAD_WINDOW,
  MAX_PAYLOAD,
  u16,
  UPLOAD_WINDOW,
  u32,
} from './link-frames';

/** Streams one link carries at once; a connection beyond it is reset (with UPLOAD_WINDOW, what the service may hold). */
export const MAX_STREAMS = 256;

export interface LinkMuxHandlers {
  /** A connection was accepted on `port`, a port the forwarder listens on for the service. */
  accepted(port: number, stream: LinkStream): void;
  /** A control message of the forwarder (JSON, not yet checked). */
  control(message: unknown): void;
  /** The link broke (the forwarder's output ended or broke the protocol). */
  ended(error: Error | null): void;
}

/**
 * The service's end of the link: many TCP streams over the forwarder's stdin and stdout. Each stream has a
 * window in each direction, so a slow reader on either side holds back its sender instead of filling memory.
 * What the forwarder sends is not trusted: oversized frames end the link, data beyond the window resets its
 * stream, and stream ids and counts are checked.
 */
export class LinkMux {
  private readonly streams = new Map<number, LinkStream>();
  private readonly decoder = new FrameDecoder();
  private readonly drainWaiters: (() => void)[] = [];
  private nextId = 2;
  private blocked = false;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly handlers: LinkMuxHandlers,
  ) {
    input.on('data', (chunk: Buffer) => this.receive(chunk));
    input.once('end', () => this.end(null));
    input.once('error', (error: Error) => this.end(error));
    output.on('error', (error: Error) => this.end(error));
    output.on('drain', () => {
      this.blocked = false;
      for (const resume of this.drainWaiters.splice(0)) resume();
    });
  }

  /** A new stream to `port` inside the sandbox (the forwarder resets it when nothing listens there). */
  open(port: number): LinkStream {
    const id = this.nextId;
    this.nextId += 2;
    const stream = new LinkStream(this, id);
    this.streams.set(id, stream);
    this.send(FRAME.OPEN, id, u16(port));
    return stream;
  }

  control(message: object): void {
    this.send(FRAME.CONTROL, 0, Buffer.from(JSON.stringify(message)));
  }

  close(): void {
    this.end(null);
  }

  /** @internal Sends one frame; false when the forwarder's input is full (wait with `whenDrained`). */
  send(type: FrameType, id: number, payload?: Buffer): boolean {
    if (this.closed) return true;
    // Header and payload go out together (one writev) without copying the payload.
    this.output.cork();
    const length = payload?.length ?? 0;
    let open = this.output.write(encodeFrame(type, id, undefined, length));
    if (length > 0) open = this.output.write(payload);
    this.output.uncork();
    if (!open) this.blocked = true;
    return !this.blocked;
  }

  /** @internal */
  whenDrained(resume: () => void): void {
    if (this.blocked && !this.closed) this.drainWaiters.push(resume);
    else resume();
  }

  /** @internal */
  forget(id: number): void {
    this.streams.delete(id);
  }

  private receive(chunk: Buffer): void {
    let frames;
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.end(error as Error);
      return;
    }
    for (const { type, id, payload } of frames) {
      if (this.closed) return;
      if (type === FRAME.CONTROL) this.receiveControl(payload);
      else if (type === FRAME.OPEN) this.accept(id, payload);
      else this.streams.get(id)?.receive(type, payload);
    }
  }

  private receiveControl(payload: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    this.handlers.control(message);
  }

  /** A connection accepted by the forwarder: odd ids only, never one in use, within MAX_STREAMS. */
  private accept(id: number, payload: Buffer): void {
    if (id % 2 !== 1 || this.streams.has(id) || payload.length !== 2 || this.streams.size >= MAX_STREAMS) {
      this.send(FRAME.RESET, id);
      return;
    }
    const stream = new LinkStream(this, id);
    this.streams.set(id, stream);
    this.handlers.accepted(payload.readUInt16BE(0), stream);
  }

  private end(error: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    for (const stream of this.streams.values()) stream.destroy();
    this.streams.clear();
    for (const resume of this.drainWaiters.splice(0)) resume();
    this.output.end();
    this.handlers.ended(error);
  }
}

/** One TCP stream over the link, as a Duplex: what is written goes to the other end, within its window. */
export class LinkStream extends Duplex {
  /** Bytes this side may still send. */
  private credit = DOWNLOAD_WINDOW;
  /** Bytes the forwarder may still send; going under zero breaks the protocol. */
  private allowance = UPLOAD_WINDOW;
  /** Bytes received but not yet read by this stream's consumer, granted once it reads. */
  private unread = 0;
  private granted = 0;
  private grantScheduled = false;
  private outgoing: { chunk: Buffer; done: (error?: Error | null) => void } | null = null;
  private localEnded = false;
  private remoteEnded = false;
  private remoteReset = false;

  constructor(
    private readonly mux: LinkMux,
    readonly id: number,
  ) {
    super({ allowHalfOpen: true });
  }

  /** @internal A frame of this stream from the forwarder. */
  receive(type: number, payload: Buffer): void {
    if (type === FRAME.DATA) {
      this.allowance -= payload.length;
      if (this.allowance < 0) {
        this.destroy(new Error('The sandbox sent beyond the stream window'));
        return;
      }
      if (this.push(payload)) this.grant(payload.length);
      else this.unread += payload.length;
    } else if (type === FRAME.WINDOW && payload.length === 4) {
      this.credit += payload.readUInt32BE(0);
      this.pump();
    } else if (type === FRAME.END) {
      this.remoteEnded = true;
      this.push(null);
    } else if (type === FRAME.RESET) {
      this.remoteReset = true;
      this.destroy();
    }
  }

  override _read(): void {
    if (this.unread === 0) return;
    const bytes = this.unread;
    this.unread = 0;
    this.grant(bytes);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.outgoing = { chunk, done };
    this.pump();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.localEnded = true;
    this.mux.send(FRAME.END, this.id);
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.mux.forget(this.id);
    if (!this.remoteReset && !(this.localEnded && this.remoteEnded)) this.mux.send(FRAME.RESET, this.id);
    const outgoing = this.outgoing;
    this.outgoing = null;
    outgoing?.done(error ?? new Error('The link stream closed'));
    done(error);
  }

  /** Sends as much of the pending write as the window allows; the write completes once all of it went. */
  private pump(): void {
    const outgoing = this.outgoing;
    if (!outgoing) return;
    let { chunk } = outgoing;
    let open = true;
    while (chunk.length > 0 && this.credit > 0) {
      const size = Math.min(chunk.length, this.credit, MAX_PAYLOAD);
      open = this.mux.send(FRAME.DATA, this.id, chunk.subarray(0, size));
      this.credit -= size;
      chunk = chunk.subarray(size);
    }
    if (chunk.length > 0) {
      outgoing.chunk = chunk;
      return;
    }
    this.outgoing = null;
    if (open) outgoing.done();
    else this.mux.whenDrained(() => outgoing.done());
  }

  /** Grants the forwarder more window, batched per turn of the event loop. */
  private grant(bytes: number): void {
    this.granted += bytes;
    if (this.grantScheduled) return;
    this.grantScheduled = true;
    setImmediate(() => {
      this.grantScheduled = false;
      if (this.destroyed || this.granted === 0) return;
      this.allowance += this.granted;
      this.mux.send(FRAME.WINDOW, this.id, u32(this.granted));
      this.granted = 0;
    });
  }
}
