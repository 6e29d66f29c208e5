import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import type { ServiceConfig } from '../../src/service/config';
import { createService, type DockhandService } from '../../src/service/index';
import { MemorySecretStore } from '../../src/service/secrets/memory-store';

export interface TestService {
  service: DockhandService;
  url: string;
  port: number;
  key: string;
  dataDir: string;
  /** A keyed JSON request; pass `key: null` to send none. */
  api(method: string, path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Stops the service and, unless `keepData`, removes its data folder. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface RequestOptions {
  body?: unknown;
  /** A raw body sent as is (with the content type in `headers`). */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  key?: string | null;
}

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), 'dockhand-test-'));
}

/**
 * Starts a real service on an ephemeral loopback port with its own data folder.
 * Secrets default to memory; pass `secretStore: undefined` with `realKeychain: true` for the OS keychain.
 */
export async function startTestService(
  config: Partial<ServiceConfig> & { realKeychain?: boolean } = {},
): Promise<TestService> {
  const dataDir = config.dataDir ?? tempDataDir();
  const { realKeychain, ...rest } = config;
  const service = await createService({
    port: 0,
    logger: pino({ level: 'silent' }),
    ...(realKeychain ? {} : { secretStore: new MemorySecretStore() }),
    ...rest,
    dataDir,
  });
  const key = service.context.sessionKey.current;
  return {
    service,
    url: service.url,
    port: service.port,
    key,
    dataDir,
    api: (method, urlPath, options = {}) => rawRequest(service.port, method, urlPath, { key, ...options }),
    close: async ({ keepData = false } = {}) => {
      await service.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An HTTP request with full control of the headers (Host included), over node:http. */
export function rawRequest(
  port: number,
  method: string,
  urlPath: string,
  options: RequestOptions = {},
): Promise<TestResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers['X-Session-API-Key'] = options.key;
  let payload: string | Buffer | undefined = options.rawBody;
  if (options.body !== undefined) {
    payload = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path: urlPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}
