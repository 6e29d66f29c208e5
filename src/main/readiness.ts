import { setTimeout as sleep } from 'node:timers/promises';

export class ServiceNotReady extends Error {
  constructor(url: string, attempts: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`The Dockhand service did not answer at ${url} after ${attempts} attempts (${reason})`, { cause });
  }
}

export interface ReadinessOptions {
  fetch?: (url: string) => Promise<{ ok: boolean; status: number; json(): Promise<unknown> }>;
  wait?: (ms: number) => Promise<unknown>;
  attempts?: number;
  intervalMs?: number;
}

/** Polls `GET /alive` until it answers `{"status":"ok"}`. */
export async function waitUntilAlive(baseUrl: string, options: ReadinessOptions = {}): Promise<void> {
  const { fetch = globalThis.fetch, wait = sleep, attempts = 50, intervalMs = 100 } = options;
  const url = `${baseUrl}/alive`;
  let lastFailure: unknown = 'no answer';
  for (let attempt = 1; attempt <= attempts; attempt++) {
    try {
      const response = await fetch(url);
      const body = response.ok ? ((await response.json()) as { status?: unknown }) : null;
      if (body?.status === 'ok') return;
      lastFailure = `HTTP ${response.status}`;
    } catch (error) {
      lastFailure = error;
    }
    if (attempt < attempts) await wait(intervalMs);
  }
  throw new ServiceNotReady(url, attempts, lastFailure);
}
