import { request as httpRequest } from 'node:http';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: unknown;
}

/**
 * A request sent exactly as given (path untouched) from a chosen loopback address: failed attempts are
 * throttled per address, so spreading deliberate failures over 127.0.0.x keeps each of them a 401.
 * An event stream is cut after its first chunk.
 */
export function loopbackRequest(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  localAddress = '127.0.0.1',
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, localAddress }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (String(res.headers['content-type']).startsWith('text/event-stream')) res.destroy();
      });
      res.on('close', () => {
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = text;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Loopback source addresses, a fresh one every `per` requests (127.0.<n>.<m>, never 127.0.0.1). */
export function addressSpreader(per = 10): () => string {
  let sent = 0;
  return () => {
    const n = 2 + Math.floor(sent++ / per);
    return `127.0.${Math.floor(n / 250)}.${2 + (n % 250)}`;
  };
}
