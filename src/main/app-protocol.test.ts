import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appProtocolHandler } from './app-protocol';

const CSP = "default-src 'none'; connect-src http://127.0.0.1:4000";

describe('appProtocolHandler', () => {
  let root: string;
  let handle: (request: Request) => Promise<Response>;

  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-app-protocol-'));
    const rendererDir = path.join(root, 'renderer');
    mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Dockhand</title>');
    writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
    writeFileSync(path.join(root, 'secret.txt'), 'outside the renderer');
    handle = appProtocolHandler({ rendererDir, csp: CSP });
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const get = (url: string, method = 'GET') => handle(new Request(url, { method }));

  it('serves index.html with the CSP', async () => {
    const response = await get('app://dockhand/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toContain('<title>Dockhand</title>');
  });

  it('serves index.html at the root and for client-side routes', async () => {
    for (const url of ['app://dockhand/', 'app://dockhand/conversations/abc']) {
      const response = await get(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>Dockhand</title>');
    }
  });

  it('serves assets with their content type and the CSP', async () => {
    const response = await get('app://dockhand/assets/index-abc.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(CSP);
    expect(await response.text()).toBe('console.log(1)');
  });

  it('answers 404 for a missing asset instead of the page', async () => {
    expect((await get('app://dockhand/assets/missing.js')).status).toBe(404);
  });

  it('never serves files outside the renderer folder', async () => {
    for (const url of [
      'app://dockhand/../secret.txt',
      'app://dockhand/%2e%2e/secret.txt',
      'app://dockhand/..%2fsecret.txt',
      'app://dockhand/assets/..%2f..%2fsecret.txt',
      'app://dockhand/%2e%2e%5csecret.txt',
    ]) {
      const response = await get(url);
      const body = await response.text();
      expect(body).not.toContain('outside the renderer');
    }
    expect((await get('app://dockhand/..%2fsecret.txt')).status).toBe(404);
  });

  it('refuses malformed paths, other hosts and other methods', async () => {
    expect((await get('app://dockhand/%E0%A4%A')).status).toBe(404);
    expect((await get('app://dockhand/a%00.js')).status).toBe(404);
    expect((await get('app://other/index.html')).status).toBe(404);
    expect((await get('app://dockhand/index.html', 'POST')).status).toBe(405);
  });

  it('answers HEAD without a body', async () => {
    const response = await get('app://dockhand/index.html', 'HEAD');
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
  });
});
