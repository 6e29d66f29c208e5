import { io as ioClient } from 'socket.io-client';

export interface HandshakeOptions {
  key?: string;
  localAddress?: string;
  origin?: string;
  transport?: 'websocket' | 'polling';
}

/** One socket.io handshake for conversation `x`: `connected`, or the `connect_error` message. */
export function socketHandshake(url: string, options: HandshakeOptions = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = ioClient(url, {
      query: { conversation_id: 'x', ...(options.key === undefined ? {} : { session_api_key: options.key }) },
      transports: [options.transport ?? 'websocket'],
      reconnection: false,
      ...(options.origin ? { extraHeaders: { Origin: options.origin } } : {}),
      // Passed on to the websocket of engine.io-client in Node.
      ...(options.localAddress ? ({ localAddress: options.localAddress } as object) : {}),
    });
    socket.on('connect_error', (error) => {
      socket.close();
      resolve(error.message);
    });
    socket.on('connect', () => {
      socket.close();
      resolve('connected');
    });
  });
}
