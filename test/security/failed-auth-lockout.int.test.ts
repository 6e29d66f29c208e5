import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service';
import { addressSpreader, loopbackRequest } from './loopback-request';
import { socketHandshake } from './socket-handshake';

const THROTTLED = { status: 429, body: { detail: 'Too many requests' } };

/** Whether the right key still gets its answer: socket.io then refuses only for the unknown conversation. */
const KEY_ACCEPTED = 'Conversation x not found';

describe('lockout of the right key by failed attempts', () => {
  let svc: TestService;
  const addresses = addressSpreader(1);

  const get = async (key: string, localAddress: string) => {
    const answer = await loopbackRequest(
      svc.port,
      'GET',
      '/api/secrets',
      { 'X-Session-API-Key': key },
      localAddress,
    );
    return { status: answer.status, body: answer.json };
  };

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('serves the right key from an address that is flooding wrong keys, while the wrong ones get 429', async () => {
    const address = addresses();
    const flood = Array.from({ length: 200 }, (_, i) => get(`wrong-${i}`, address));
    const right = Array.from({ length: 50 }, () => get(svc.key, address));
    const [wrong, served] = await Promise.all([Promise.all(flood), Promise.all(right)]);
    expect(wrong.filter((answer) => answer.status === 429).length).toBeGreaterThan(100);
    expect(wrong.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
    expect(served.every((answer) => answer.status === 200)).toBe(true);
    expect((await get(svc.key, address)).status).toBe(200);
  });

  it('throttles one wrong key from any number of addresses, without touching the right key', async () => {
    // 40 attempts: the first 20 are allowed; the rest would need 10 s of refill to be allowed too.
    const answers = [];
    for (let i = 0; i < 40; i += 1) answers.push(await get('one-wrong-key', addresses()));
    expect(answers.slice(0, 20).every((answer) => answer.status === 401)).toBe(true);
    expect(answers).toContainEqual(THROTTLED);
    expect((await get(svc.key, addresses())).status).toBe(200);
  });

  it('counts failed socket.io handshakes with HTTP failures, and never refuses the right key on either', async () => {
    // 18 failures of each kind: under the 20 allowed for either alone, over them together (the allowance
    // refills at 2/s, so this holds as long as the 36 attempts take under 8 s).
    const address = addresses();
    const [sockets, requests] = await Promise.all([
      Promise.all(
        Array.from({ length: 18 }, (_, i) =>
          socketHandshake(svc.url, { key: `ws-${i}`, localAddress: address }),
        ),
      ),
      Promise.all(Array.from({ length: 18 }, (_, i) => get(`http-${i}`, address))),
    ]);
    const throttled =
      sockets.filter((message) => message === 'Too many requests').length +
      requests.filter((answer) => answer.status === 429).length;
    expect(throttled).toBeGreaterThan(0);
    expect(sockets.every((m) => m === 'invalid_session_api_key' || m === 'Too many requests')).toBe(true);
    expect(await socketHandshake(svc.url, { key: svc.key, localAddress: address })).toBe(KEY_ACCEPTED);
    expect((await get(svc.key, address)).status).toBe(200);
  });
});
