import { type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * Answers requests Node's HTTP parser refuses before Express sees them (a head over 16 KiB, a malformed
 * request line) with the API's JSON `{"detail": ...}` body instead of Node's empty one.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, detail] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request header fields too large']
        : [400, 'Malformed HTTP request'];
    const body = JSON.stringify({ detail });
    socket.end(
      [
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
        'Content-Type: application/json; charset=utf-8',
        'Cache-Control: no-store',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
