import { createServer, type Server } from 'node:http';
import type { RequestListener } from 'node:http';
import { answerClientErrorsAsJson } from './http/client-errors';

export const DEFAULT_PORT = 3000;
const FALLBACK_PORTS = [3001, 3002, 3003, 3004, 3005, 3006, 3007, 3008, 3009, 3010];

export class PortInUse extends Error {
  constructor(readonly port: number) {
    super(
      `Port ${port} on 127.0.0.1 is already in use. Choose another with --port, or stop what is using it.`,
    );
  }
}

function tryListen(server: Server, port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') resolve(false);
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve(true);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, '127.0.0.1');
  });
}

/**
 * Listens on 127.0.0.1 only. A strict port must be free; otherwise the preferred port, then 3001-3010,
 * then any free port.
 */
export async function listenOnLoopback(
  handler: RequestListener,
  options: { port: number; strict: boolean },
): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  answerClientErrorsAsJson(server);
  const candidates = options.strict
    ? [options.port]
    : [options.port, ...FALLBACK_PORTS.filter((p) => p !== options.port), 0];
  for (const port of candidates) {
    if (await tryListen(server, port)) {
      const address = server.address();
      return { server, port: typeof address === 'object' && address ? address.port : port };
    }
  }
  throw new PortInUse(options.port);
}
