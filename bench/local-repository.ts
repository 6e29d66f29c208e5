/**
 * Copying a repository of this machine into a sandbox, against `git clone --no-hardlinks` of it into a
 * temporary folder, in the same run.
 *
 * Makes a git repository of `--files` files (10 000) and about `--megabytes` MB (100), committed, plus a
 * few uncommitted and untracked files. Starts the real service (memory secret store, no network for
 * containers) and one sandbox, then alternates for `--runs` repetitions: the copy as a conversation's start
 * makes it (`copyIntoSandbox`: the history and working tree through the engine's archive API, then the
 * starting snapshot committed in the sandbox), and `git clone --no-hardlinks -q` of the same repository on
 * this machine. Prints both medians and their ratio; exits 1 above 1.5×. Everything it made is removed.
 *
 *   npx tsx bench/local-repository.ts [--runs 3] [--files 10000] [--megabytes 100]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import Docker from 'dockerode';
import pino from 'pino';
import { gitSandbox } from '../src/service/git/git-sandbox';
import { createService } from '../src/service/index';
import { copyIntoSandbox } from '../src/service/local-repository/copy-into-sandbox';
import { resolveLocalRepository } from '../src/service/local-repository/resolve-repository';
import { installFilter } from '../src/service/sandbox/docker/labels';
import { MemorySecretStore } from '../src/service/secrets/memory-store';
import { median, runBench } from './support/bench-kit';

const MAX_RATIO = 1.5;
const IMAGE = process.env.DOCKHAND_SANDBOX_IMAGE || 'dockhand/sandbox:1.0.0';
const IDENTITY = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
};

const docker = new Docker();

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', ['-C', cwd, ...args], {
    env: { ...process.env, ...IDENTITY, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
    stdio: 'ignore',
  });
}

/** `files` text files of random hex (incompressible enough to keep the size), 100 to a folder. */
function makeRepository(root: string, files: number, megabytes: number): void {
  mkdirSync(root, { recursive: true });
  git(root, 'init', '-q', '-b', 'main');
  const bytesEach = Math.floor((megabytes * 1024 * 1024) / files);
  for (let index = 0; index < files; index++) {
    const folder = path.join(root, `src${Math.floor(index / 100)}`);
    if (index % 100 === 0) mkdirSync(folder);
    writeFileSync(path.join(folder, `file${index}.txt`), randomBytes(bytesEach / 2).toString('hex'));
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'Bench repository');
  writeFileSync(path.join(root, 'src0', 'file0.txt'), 'changed\n');
  writeFileSync(path.join(root, 'untracked.txt'), 'untracked\n');
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '3' },
      files: { type: 'string', default: '10000' },
      megabytes: { type: 'string', default: '100' },
    },
  });
  const [runs, files, megabytes] = [Number(values.runs), Number(values.files), Number(values.megabytes)];
  if (![runs, files, megabytes].every((n) => Number.isInteger(n) && n > 0))
    throw new Error('--runs, --files and --megabytes must be positive whole numbers');
  await docker
    .getImage(IMAGE)
    .inspect()
    .catch(() => {
      throw new Error(`The image ${IMAGE} is missing: run \`npm run sandbox:image\` first.`);
    });

  const scratch = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-local-'));
  const root = path.join(scratch, 'repository');
  console.log(`making a repository of ${files} files, ${megabytes} MB...`);
  makeRepository(root, files, megabytes);
  const service = await createService({
    dataDir: path.join(scratch, 'data'),
    port: 0,
    logger: pino({ level: 'silent' }),
    secretStore: new MemorySecretStore(),
    sandbox: { image: IMAGE, network: 'none', idlePauseSeconds: 0, onClose: 'leave' },
  });
  const instance = (
    service.db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as {
      value: string;
    }
  ).value;
  try {
    const sandboxes = service.context.sandboxes;
    const created = await sandboxes.create(service.context.sandboxSpecs.default());
    const info = await sandboxes.settled(created.id);
    if (info.status !== 'RUNNING') throw new Error(`The sandbox ended ${info.status}: ${info.error}`);
    const workspace = await sandboxes.workspace(info.id);
    const sandbox = gitSandbox(workspace);

    const copy = async (): Promise<number> => {
      await sandbox.exec(['rm', '-rf', `${workspace.workingDir}/repository`]);
      const started = performance.now();
      await copyIntoSandbox({
        repository: await resolveLocalRepository(root, null),
        sandbox,
        files: workspace.files,
        workingDir: workspace.workingDir,
        identity: IDENTITY,
        progress: () => undefined,
        notice: (message) => console.warn(message),
      });
      return performance.now() - started;
    };
    const clone = (): number => {
      const destination = path.join(scratch, 'clone');
      rmSync(destination, { recursive: true, force: true });
      const started = performance.now();
      execFileSync('git', ['clone', '--no-hardlinks', '-q', root, destination], { stdio: 'ignore' });
      return performance.now() - started;
    };

    console.log(`warm-up: copy ${(await copy()).toFixed(0)} ms, clone ${clone().toFixed(0)} ms`);
    const copyTimes: number[] = [];
    const cloneTimes: number[] = [];
    for (let run = 0; run < runs; run++) {
      copyTimes.push(await copy());
      cloneTimes.push(clone());
    }
    const ratio = median(copyTimes) / median(cloneTimes);
    const list = (times: number[]) => times.map((time) => time.toFixed(0)).join(', ');
    console.log(
      `repository: ${files} files, ${megabytes} MB, committed, plus uncommitted and untracked files`,
    );
    console.log(`copy into the sandbox:    median ${median(copyTimes).toFixed(0)} ms (${list(copyTimes)})`);
    console.log(`git clone --no-hardlinks: median ${median(cloneTimes).toFixed(0)} ms (${list(cloneTimes)})`);
    console.log(`ratio ${ratio.toFixed(2)} (limit ${MAX_RATIO})`);
    return ratio > MAX_RATIO ? 1 : 0;
  } finally {
    await service.close();
    for (const c of await docker.listContainers({ all: true, filters: { label: installFilter(instance) } }))
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => undefined);
    const { Volumes: volumes } = await docker.listVolumes({ filters: { label: installFilter(instance) } });
    for (const volume of volumes ?? [])
      await docker
        .getVolume(volume.Name)
        .remove()
        .catch(() => undefined);
    rmSync(scratch, { recursive: true, force: true });
  }
}

runBench(main);
