import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, ensureCliBuilt, type RunningCli, startServe } from '../support/cli';
import { rawRequest } from '../support/service';
import { until } from '../support/until';

/** Loaded into `dockhand serve` before it starts: SIGUSR2 makes a promise rejection nobody handles. */
const REJECT_ON_SIGNAL = `process.on('SIGUSR2', () => { Promise.reject(new Error('injected rejection')); });`;

describe('an unhandled promise rejection in the service', () => {
  let dataDir: string;
  let serve: RunningCli;
  let stderr = '';

  beforeAll(async () => {
    ensureCliBuilt();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-rejection-'));
    serve = await startServe(
      ['--port', '0', '--data-dir', dataDir],
      cliEnv({
        DOCKHAND_SECRETS: 'file',
        NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(REJECT_ON_SIGNAL)}`,
      }),
    );
    serve.child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  });
  afterAll(async () => {
    await serve.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is logged, and the service keeps serving', async () => {
    serve.child.kill('SIGUSR2');
    const logged = await until(
      async () => stderr,
      (text) => text.includes('injected rejection'),
      'the rejection in the log',
    );
    expect(logged).toContain('unhandled promise rejection');
    expect(serve.child.exitCode).toBeNull();
    expect((await rawRequest(serve.port, 'GET', '/alive')).status).toBe(200);
  });
});
