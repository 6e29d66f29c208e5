import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerClientErrorsAsJson } from './client-errors';

function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('answerClientErrorsAsJson', () => {
  let server: Server;
  let port: number;

  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    answerClientErrorsAsJson(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers a request head over the size limit with a JSON 431', async () => {
    const answer = await rawExchange(port, `GET /?q=${'x'.repeat(70_000)} HTTP/1.1\r\nHost: a\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('Content-Type: application/json');
    expect(answer.endsWith('{"detail":"Request header fields too large"}')).toBe(true);
  });

  it('answers a malformed request with a JSON 400', async () => {
    const answer = await rawExchange(port, 'NOT A REQUEST\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer.endsWith('{"detail":"Malformed HTTP request"}')).toBe(true);
  });
});
