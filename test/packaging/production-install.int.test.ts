/**
 * The built app with its production dependencies alone, as an installed package holds them: a fresh build
 * (`electron-vite build --outDir`), package.json, the lockfile, bin/ and resources/ in a temporary folder, then
 * `npm ci --omit=dev` there, offline from the npm cache. The built service starts from that folder and writes
 * to SQLite and the keychain, so a run-time dependency missing from `dependencies` (or a dev-only one the
 * build left external) fails here.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, startServe, type RunningCli } from '../support/cli';
import { probeKeychain } from '../support/keychain';
import { rawRequest } from '../support/service';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SETUP_TIMEOUT = 15 * 60_000;

const keychain = await probeKeychain();
if (!keychain.usable) console.warn(`The packaged service stores secrets in a file here: ${keychain.reason}`);

/** Every file under `dir` whose name ends with `suffix`, relative to `dir`, with forward slashes. */
function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => name.split(path.sep).join('/'));
}

describe('the built app with its production dependencies alone', () => {
  let app: string;
  let dataDir: string;
  let cli: RunningCli | undefined;

  beforeAll(() => {
    app = mkdtempSync(path.join(os.tmpdir(), 'dockhand-production-'));
    dataDir = path.join(app, 'data');
    execFileSync('npx', ['electron-vite', 'build', '--logLevel', 'warn', '--outDir', path.join(app, 'out')], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    for (const entry of ['package.json', 'package-lock.json', 'bin', 'resources']) {
      cpSync(path.join(ROOT, entry), path.join(app, entry), { recursive: true });
    }
    // From the npm cache (scripts/test.sh keeps the user's, npm_config_cache, under its throwaway HOME); native
    // modules build against npm_config_nodedir, the pinned Node that scripts/lib/node.sh exports.
    execFileSync(
      'npm',
      [
        'ci',
        '--omit=dev',
        '--offline',
        '--no-audit',
        '--no-fund',
        '--no-update-notifier',
        '--loglevel=error',
      ],
      {
        cwd: app,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  }, SETUP_TIMEOUT);

  afterAll(async () => {
    await cli?.stop();
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('holds the production dependencies and none of the development-only packages', () => {
    const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean; optional?: boolean }>;
    };
    const installed = (folder: string) => existsSync(path.join(app, folder, 'package.json'));
    const locked = Object.entries(lock.packages).filter(([folder]) => folder.startsWith('node_modules/'));
    const production = locked.filter(([, entry]) => !entry.dev && !entry.optional).map(([folder]) => folder);
    expect(production.filter((folder) => !installed(folder))).toEqual([]);
    expect(
      locked.filter(([folder, entry]) => entry.dev && installed(folder)).map(([folder]) => folder),
    ).toEqual([]);
    expect(installed('node_modules/electron')).toBe(false);
    expect(existsSync(path.join(app, 'out', 'main', 'index.js'))).toBe(true);
  });

  it('starts the built service from them, which stores settings in SQLite and the key in the secret store', async () => {
    const env = cliEnv(keychain.usable ? {} : { DOCKHAND_SECRETS: 'file' });
    cli = await startServe(['--data-dir', dataDir, '--port', '0'], env, [], app);
    expect(await rawRequest(cli.port, 'GET', '/alive')).toMatchObject({
      status: 200,
      json: { status: 'ok' },
    });
    const saved = await rawRequest(cli.port, 'POST', '/api/settings', {
      key: cli.key,
      body: { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-production-install-test' },
    });
    expect(saved.status).toBe(200);
    expect(await rawRequest(cli.port, 'GET', '/api/settings', { key: cli.key })).toMatchObject({
      status: 200,
      json: { llm_model: 'openai/gpt-4o', llm_api_key_set: true },
    });
    const backend = keychain.usable ? 'keychain' : 'file';
    expect(await rawRequest(cli.port, 'GET', '/server_info', { key: cli.key })).toMatchObject({
      status: 200,
      json: { secret_storage: backend, keychain: { backend, state: 'ok' } },
    });
    expect(existsSync(path.join(dataDir, 'dockhand.db'))).toBe(true);
  });

  it('has its native binaries all unpacked from the asar by electron-builder.json', () => {
    const config = JSON.parse(readFileSync(path.join(ROOT, 'electron-builder.json'), 'utf8')) as {
      asarUnpack: string[];
    };
    const binaries = filesUnder(path.join(app, 'node_modules'), '.node').map(
      (file) => `node_modules/${file}`,
    );
    expect(binaries).toContain('node_modules/keytar/build/Release/keytar.node');
    const packed = binaries.filter(
      (file) => !config.asarUnpack.some((pattern) => path.matchesGlob(file, pattern)),
    );
    expect(packed).toEqual([]);
  });
});
