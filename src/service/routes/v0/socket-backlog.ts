import type { EventEmitter } from 'node:events';
import type { Socket } from 'socket.io';

/**
 * The parts of engine.io's connection that tell how far behind a client is. engine.io keeps packets in
 * `writeBuffer` while its transport is busy (a websocket send not yet written out, or no long-poll request
 * waiting); a websocket transport's `socket` is the `ws` socket, whose `bufferedAmount` is what it has not
 * handed to the network yet.
 */
interface EngineTransport extends EventEmitter {
  writable: boolean;
  socket?: { bufferedAmount?: number };
}
interface EngineConnection extends EventEmitter {
  transport: EngineTransport;
  writeBuffer: { data?: unknown }[];
}

function connection(socket: Socket): EngineConnection {
  return socket.conn as unknown as EngineConnection;
}

function packetBytes(data: unknown): number {
  if (typeof data === 'string') return data.length;
  return data instanceof Uint8Array || data instanceof ArrayBuffer ? data.byteLength : 0;
}

/** Bytes emitted to a socket.io client that have not reached the network yet. */
export function queuedBytes(socket: Socket): number {
  const conn = connection(socket);
  let bytes = conn.transport.socket?.bufferedAmount ?? 0;
  for (const packet of conn.writeBuffer) bytes += packetBytes(packet.data);
  return bytes;
}

/**
 * Resolves once everything emitted to the client so far has been written out to its connection (its
 * transport is ready for more), or the client has gone.
 */
export async function drained(socket: Socket): Promise<void> {
  for (;;) {
    const conn = connection(socket);
    if (socket.disconnected || (conn.transport.writable && conn.writeBuffer.length === 0)) return;
    const transport = conn.transport;
    await new Promise<void>((resolve) => {
      const done = () => {
        transport.off('ready', done);
        transport.off('close', done);
        conn.off('upgrade', done);
        socket.off('disconnect', done);
        resolve();
      };
      transport.on('ready', done);
      transport.on('close', done);
      conn.on('upgrade', done);
      socket.on('disconnect', done);
    });
  }
}
