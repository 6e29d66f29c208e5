import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../src/service/storage/database';
import { makeLocalGitRepo } from '../support/local-git-repo';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { tempDataDir, type TestService } from '../support/service';
import {
  closeSandboxService,
  dockerSkipReason,
  startSandboxService,
  createConversation,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the data file modes tests: ${skip}`);

/** `<path> <mode>` of everything under `folder` (itself included) whose mode is not private. */
function notPrivate(folder: string): string[] {
  const found: string[] = [];
  const walk = (entry: string) => {
    const info = lstatSync(entry);
    const mode = info.mode & 0o777;
    const relative = path.relative(folder, entry) || '.';
    if (info.isDirectory()) {
      if (mode !== 0o700) found.push(`${relative}/ ${mode.toString(8)}`);
      for (const name of readdirSync(entry)) walk(path.join(entry, name));
    } else if (mode !== 0o600) found.push(`${relative} ${mode.toString(8)}`);
  };
  walk(folder);
  return found;
}

/** Every file's path under `folder`, relative to it. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

/**
 * What the service keeps in its data folder (the SQLite database with its WAL and shared memory, logs,
 * `server.json`, each conversation's folder and files) is readable by its user only, also when the data
 * folder was made open (0755) by someone else and an older version left a 0644 database in it.
 */
describe.skipIf(skip !== null)('the modes of the data folder and what it holds', () => {
  let llm: ScriptedLlm;
  let service: TestService | undefined;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Modes' } }],
    });
  });

  afterEach(async () => {
    const dataDir = service?.dataDir;
    await closeSandboxService(service);
    service = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  afterAll(async () => {
    await llm?.close();
  });

  /** Starts a service on `dataDir` (logging to its file) and has a conversation write its task list. */
  async function converse(dataDir: string) {
    service = await startSandboxService({ dataDir, logger: undefined });
    await useScriptedModel(service, llm);
    llm.push(
      {
        toolCalls: [
          {
            name: 'task_tracker',
            args: { command: 'plan', task_list: [{ id: '1', title: 'Look', status: 'todo' }] },
          },
        ],
      },
      { text: 'Done.' },
    );
    const repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    const { id, info } = await createConversation(service, {
      repository: repo.root,
      initial_user_msg: 'Plan.',
    });
    expect(info.status).toBe('RUNNING');
    return id;
  }

  /** The files the test expects, so that a walk over an empty folder cannot pass. */
  function expectServiceFiles(dataDir: string, id: string): void {
    expect(filesUnder(dataDir)).toEqual(
      expect.arrayContaining([
        DATABASE_FILE,
        `${DATABASE_FILE}-wal`,
        `${DATABASE_FILE}-shm`,
        'server.json',
        path.join('logs', 'dockhand.log'),
        path.join('conversations', id, 'TASKS.md'),
        path.join('conversations', id, 'local-repository.json'),
      ]),
    );
  }

  it('makes a data folder created 0755 by someone else private, and keeps everything in it private', async () => {
    const dataDir = tempDataDir();
    chmodSync(dataDir, 0o755);
    const id = await converse(dataDir);
    expectServiceFiles(dataDir, id);
    expect(notPrivate(dataDir)).toEqual([]);
  });

  it('makes a 0644 database (with its WAL and shared memory) that an older version left private', async () => {
    const dataDir = tempDataDir();
    chmodSync(dataDir, 0o755);
    const file = path.join(dataDir, DATABASE_FILE);
    // An older version's database, open in WAL mode and left after a crash: all three files 0644.
    const old = new DatabaseSync(file);
    old.exec('PRAGMA journal_mode = WAL; CREATE TABLE leftover (x); INSERT INTO leftover VALUES (1)');
    for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`])
      chmodSync(path.join(dataDir, name), 0o644);
    mkdirSync(path.join(dataDir, 'logs'), { mode: 0o755 });
    writeFileSync(path.join(dataDir, 'logs', 'dockhand.log'), '', { mode: 0o644 });
    chmodSync(path.join(dataDir, 'logs'), 0o755);
    try {
      const id = await converse(dataDir);
      expectServiceFiles(dataDir, id);
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      old.close();
    }
  });
});
