import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerSkipReason } from '../sandbox/support';
import { ensureCliBuilt, startServe, type RunningCli } from '../support/cli';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { until } from '../support/until';
import {
  allEvents,
  apiOf,
  type Api,
  integrityCheck,
  removeSandboxesOf,
  serveEnvironment,
  startConversation,
  untilAgentState,
  useScriptedLlm,
} from './support';

/** Why a small tmpfs cannot be mounted here, or null when it can. */
function tmpfsSkipReason(): string | null {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const probe = mkdtempSync(path.join(os.tmpdir(), 'dockhand-tmpfs-probe-'));
  try {
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], {
      encoding: 'utf8',
    });
    if (mounted.status !== 0) return `mount -t tmpfs failed: ${mounted.stderr.trim()}`;
    execFileSync('umount', [probe]);
    return null;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const skip = tmpfsSkipReason() ?? (await dockerSkipReason());
if (skip) console.warn(`Skipping the disk-full tests: ${skip}`);

const DISK_FULL = /^Not enough disk space in the data folder .+: free some space and retry\.$/;
const BIG_MESSAGE = 'x'.repeat(150_000);

/** Fills the file system of `dir` with a file until the kernel says it is full. */
function fill(file: string): void {
  spawnSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=64k'], { stdio: 'ignore' });
  spawnSync('dd', ['if=/dev/zero', `of=${file}.tail`, 'bs=512'], { stdio: 'ignore' });
}

describe.skipIf(skip !== null)('a full disk under the data folder', () => {
  let root: string;
  let dataDir: string;
  let llm: ScriptedLlm;
  let cli: RunningCli | undefined;
  let api: Api;

  beforeAll(async () => {
    ensureCliBuilt();
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-disk-full-'));
    dataDir = path.join(root, 'data');
    mkdirSync(dataDir, { mode: 0o700 });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0700', 'tmpfs', dataDir]);
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Disk title' } }],
    });
    cli = await startServe(['--data-dir', dataDir, '--port', '0'], serveEnvironment());
    api = apiOf(cli.port, cli.key);
  });

  afterAll(async () => {
    await cli?.stop();
    if (dataDir) await removeSandboxesOf(dataDir).catch(() => undefined);
    await llm?.close();
    if (dataDir) spawnSync('umount', [dataDir]);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('refuses writes with 507 naming the cause, keeps answering, and loses nothing', async () => {
    await useScriptedLlm(api, llm);
    llm.push({ text: 'Hello.' });
    const id = await startConversation(api, { initial_user_msg: 'hello' });
    await untilAgentState(api, id, ['awaiting_user_input']);
    const before = await allEvents(api, id);
    const settingsBefore = (await api('GET', '/api/settings')).json;

    // The disk fills while the model is answering: the agent's next write fails in the background.
    let answering!: () => void;
    const asked = new Promise<void>((resolve) => (answering = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    llm.push(async () => {
      answering();
      await released;
      return { text: 'An answer nobody can store' };
    });
    expect(
      (await api('POST', `/api/conversations/${id}/message`, { body: { message: 'work' } })).status,
    ).toBe(200);
    await asked;
    const filler = path.join(dataDir, 'filler');
    fill(filler);
    release();
    for (let i = 0; i < 60; i++) llm.push({ text: `Reply ${i}` });

    // The SQLite WAL may still have room for a few writes; keep writing until the disk refuses one.
    const answers: number[] = [];
    let refused: { status: number; json: unknown } | undefined;
    for (let i = 0; i < 60 && !refused; i++) {
      const sent = await api('POST', `/api/conversations/${id}/message`, {
        body: { message: `${BIG_MESSAGE} ${i}` },
      });
      answers.push(sent.status);
      if (sent.status !== 200) refused = sent;
    }
    expect(answers.every((s) => s === 200 || s === 507)).toBe(true);
    expect(refused?.status).toBe(507);
    expect((refused?.json as { detail: string }).detail).toMatch(DISK_FULL);

    const settings = await api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', language: 'x'.repeat(200_000) },
    });
    expect(settings.status).toBe(507);
    expect((settings.json as { detail: string }).detail).toMatch(DISK_FULL);
    const secret = await api('POST', '/api/secrets', { body: { name: 'BIG', value: 'v'.repeat(65_536) } });
    expect([201, 507]).toContain(secret.status);

    // The agent settles, and the API says how, though the disk had no room to record it.
    await untilAgentState(api, id, ['awaiting_user_input', 'error']);

    // Reads keep working and the process is alive.
    expect((await api('GET', '/alive', { key: null })).status).toBe(200);
    expect((await api('GET', `/api/conversations/${id}`)).status).toBe(200);
    expect((await api('GET', '/api/settings')).json).toEqual(settingsBefore);
    expect(cli?.child.exitCode).toBeNull();

    rmSync(filler, { force: true });
    rmSync(`${filler}.tail`, { force: true });
    expect(integrityCheck(dataDir)).toEqual(['ok']);

    const after = await allEvents(api, id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.map((e) => e.id)).toEqual(after.map((_, i) => i));
    // The agent could not record its failure while the disk was full; a new message resumes it.
    expect(
      (await api('POST', `/api/conversations/${id}/message`, { body: { message: 'again' } })).status,
    ).toBe(200);
    const answered = await until(
      () => allEvents(api, id),
      (events) =>
        events.some((e) => e.id > after.length - 1 && e.source === 'agent' && e.action === 'message'),
      'a reply after space was freed',
    );
    expect(answered.map((e) => e.id)).toEqual(answered.map((_, i) => i));
  });
});
