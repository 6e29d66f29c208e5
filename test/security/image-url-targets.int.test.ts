import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createImageDownload } from '../../src/service/agent/image-download';
import { MAX_IMAGE_BYTES } from '../../src/shared/api/image-limits';

/** A resolver answering from a fixed table: names that lead to this machine or a private network. */
function resolverOf(table: Record<string, string>) {
  return (
    hostname: string,
    _options: unknown,
    callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    const address = table[hostname];
    callback(null, address ? [{ address, family: address.includes(':') ? 6 : 4 }] : []);
  };
}

/** Why a download failed, through the SDK's DownloadError and its cause. */
function reason(error: unknown): string {
  const parts: string[] = [];
  for (let e = error as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    parts.push(e.message ?? String(e));
  }
  return parts.join(' <- ');
}

async function refusal(download: Promise<unknown>): Promise<string> {
  try {
    await download;
  } catch (error) {
    return reason(error);
  }
  throw new Error('the download was not refused');
}

describe('image URLs cannot make the service reach this machine or a private network', () => {
  let server: Server;
  let port: number;
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/redirect-inside') {
        res.writeHead(302, { Location: `http://internal.example:${port}/secret.png` }).end();
      } else if (req.url === '/huge.png') {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end(Buffer.alloc(MAX_IMAGE_BYTES + 1));
      } else {
        res.writeHead(200, { 'Content-Type': 'image/png' }).end('secret');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('a name that resolves to loopback is refused before any connection', async () => {
    const download = createImageDownload({ resolve: resolverOf({ 'images.example': '127.0.0.1' }) });
    const before = requests.length;
    const url = new URL(`http://images.example:${port}/a.png`);
    expect(await refusal(download({ url }))).toMatch(/images\.example is 127\.0\.0\.1, not a public/);
    expect(requests.length).toBe(before);
  });

  it('address literals of this machine are refused in every spelling', async () => {
    const download = createImageDownload();
    const before = requests.length;
    for (const host of [
      '127.0.0.1',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '2130706433',
      '0x7f.1',
      '[::1]',
    ]) {
      const url = new URL(`http://${host}:${port}/a.png`);
      expect(await refusal(download({ url }))).toMatch(/not allowed|not a public/);
    }
    expect(requests.length).toBe(before);
  });

  it('a redirect to a private address is checked again and refused', async () => {
    // The first hop is let through on purpose (an allowlist of the test server's address only).
    const download = createImageDownload({
      resolve: resolverOf({ 'public.example': '127.0.0.1', 'internal.example': '10.0.0.7' }),
      allow: (address) => address === '127.0.0.1',
    });
    const before = requests.length;
    const url = new URL(`http://public.example:${port}/redirect-inside`);
    expect(await refusal(download({ url }))).toMatch(/internal\.example is 10\.0\.0\.7, not a public/);
    expect(requests.slice(before)).toEqual(['/redirect-inside']);
  });

  it('an image over the size cap is refused', async () => {
    const download = createImageDownload({
      resolve: resolverOf({ 'public.example': '127.0.0.1' }),
      allow: (address) => address === '127.0.0.1',
    });
    const url = new URL(`http://public.example:${port}/huge.png`);
    expect(await refusal(download({ url }))).toMatch(`exceeded maximum size of ${MAX_IMAGE_BYTES} bytes`);
  });
});
