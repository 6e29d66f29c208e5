import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dockerUnavailableReason,
  removeContainer,
  startTestContainer,
} from '../../../../test/support/test-sandboxes';
import { dockerExec } from '../docker/docker-exec';
import { DockerSandboxFiles } from './docker-files';
import type { FileSurvey, SurveyRoot } from './sandbox-files';
import { parseSurvey, SURVEY_SCRIPT, surveyArgs } from './survey-command';
import type { SandboxFiles } from './sandbox-files';
import { SurveyedFiles } from './surveyed-files';

const docker = new Docker();
const skipReason = await dockerUnavailableReason(docker);
if (skipReason) console.warn(`Skipping the file survey tests: ${skipReason}`);

const ROOT = '/workspace/project/survey';
const ROOTS: SurveyRoot[] = [
  { path: ROOT, depth: 1, read: false },
  { path: `${ROOT}/.openhands`, depth: 3, read: true },
  { path: `${ROOT}/AGENTS.md`, depth: 0, read: true },
  { path: `${ROOT}/missing`, depth: 2, read: true },
];
const TREE = `set -e
mkdir -p ${ROOT}/.openhands/microagents/nested/deeper ${ROOT}/src
printf 'echo set up\\n' > ${ROOT}/.openhands/setup.sh
printf -- '---\\ntriggers: [x]\\n---\\nnested\\n' > ${ROOT}/.openhands/microagents/nested/one.md
printf 'too deep\\n' > ${ROOT}/.openhands/microagents/nested/deeper/two.md
printf '\\000\\001binary\\377' > ${ROOT}/.openhands/microagents/binary.md
head -c 1000001 /dev/zero > ${ROOT}/.openhands/large.md
ln -s setup.sh ${ROOT}/.openhands/link.sh
ln -s /nowhere ${ROOT}/.openhands/dangling
printf 'agents\\n' > ${ROOT}/AGENTS.md
printf 'x' > ${ROOT}/src/index.ts
chown -R dockhand:dockhand ${ROOT}`;

/** Paths asked with stat, list and read, inside and outside the survey. */
const PATHS = [
  ROOT,
  `${ROOT}/AGENTS.md`,
  `${ROOT}/agents.md`,
  `${ROOT}/src`,
  `${ROOT}/src/index.ts`,
  `${ROOT}/.openhands`,
  `${ROOT}/.openhands/setup.sh`,
  `${ROOT}/.openhands/pre-commit.sh`,
  `${ROOT}/.openhands/microagents`,
  `${ROOT}/.openhands/microagents/nested`,
  `${ROOT}/.openhands/microagents/nested/one.md`,
  `${ROOT}/.openhands/microagents/nested/deeper`,
  `${ROOT}/.openhands/microagents/nested/deeper/two.md`,
  `${ROOT}/.openhands/microagents/binary.md`,
  `${ROOT}/.openhands/large.md`,
  `${ROOT}/.openhands/link.sh`,
  `${ROOT}/.openhands/dangling`,
  `${ROOT}/missing`,
  `${ROOT}/missing/a/b`,
];

/** What a call answered: its value, or its error's code. */
async function outcome(call: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await call();
    return Buffer.isBuffer(value) ? value.toString('base64') : value;
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

async function answers(files: SandboxFiles): Promise<unknown[]> {
  const all: unknown[] = [];
  for (const path of PATHS) {
    all.push(await outcome(() => files.stat(path)));
    all.push(await outcome(() => files.list(path)));
    all.push(await outcome(() => files.read(path)));
    all.push(await outcome(() => files.read(path, { maxBytes: 4 })));
  }
  return all;
}

/** Counts the calls that reach the sandbox. */
function counting(files: SandboxFiles): { files: SandboxFiles; calls: string[] } {
  const calls: string[] = [];
  const proxy = new Proxy(files, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(`${String(name)} ${String(args[0])}`);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { files: proxy, calls };
}

describe.skipIf(skipReason !== null)('a survey of a Docker sandbox', () => {
  let container: Docker.Container;
  let files: DockerSandboxFiles;
  let survey: FileSurvey | null;

  beforeAll(async () => {
    container = await startTestContainer(docker, 'survey');
    const made = await dockerExec(container, ['sh', '-c', TREE]);
    if (made.exitCode !== 0) throw new Error(made.stderr);
    files = new DockerSandboxFiles(container, { user: 'dockhand' });
    survey = await files.survey(ROOTS);
  }, 60_000);

  afterAll(async () => {
    if (container) await removeContainer(container);
  });

  it('answers every stat, list and read as the sandbox does', async () => {
    expect(survey).not.toBeNull();
    expect(await answers(new SurveyedFiles(files, survey))).toEqual(await answers(files));
  }, 60_000);

  it('answers what it surveyed without asking the sandbox', async () => {
    const { files: counted, calls } = counting(files);
    const surveyed = new SurveyedFiles(counted, survey);
    expect(await surveyed.stat(`${ROOT}/.openhands/pre-commit.sh`)).toBeNull();
    expect((await surveyed.read(`${ROOT}/.openhands/setup.sh`)).toString()).toBe('echo set up\n');
    expect((await surveyed.list(`${ROOT}/.openhands/microagents/nested`)).map((e) => e.name)).toEqual([
      'deeper',
      'one.md',
    ]);
    expect((await surveyed.read(`${ROOT}/AGENTS.md`)).toString()).toBe('agents\n');
    await expect(surveyed.list(`${ROOT}/missing/a`)).rejects.toMatchObject({ code: 'not_found' });
    expect(calls).toEqual([]);
    // Past the survey: the symlink, the large file and a folder below the root's depth go to the sandbox.
    await surveyed.stat(`${ROOT}/.openhands/link.sh`);
    await surveyed.read(`${ROOT}/.openhands/large.md`);
    await surveyed.list(`${ROOT}/src`);
    expect(calls).toHaveLength(3);
  }, 60_000);

  it('forgets what it knew once something is written', async () => {
    const { files: counted, calls } = counting(files);
    const surveyed = new SurveyedFiles(counted, survey);
    await surveyed.write(`${ROOT}/.openhands/pre-commit.sh`, 'echo hook\n');
    expect((await surveyed.stat(`${ROOT}/.openhands/pre-commit.sh`))?.type).toBe('file');
    expect(calls).toEqual([
      `write ${ROOT}/.openhands/pre-commit.sh`,
      `stat ${ROOT}/.openhands/pre-commit.sh`,
    ]);
  }, 60_000);

  it('taken as root, stands for the sandbox user only where the user could read everything', async () => {
    const asRoot = async () => {
      const result = await dockerExec(container, [
        'sh',
        '-c',
        SURVEY_SCRIPT,
        'sh',
        ...surveyArgs(ROOTS, 'dockhand'),
      ]);
      return parseSurvey(result.stdout, ROOTS, result.truncated);
    };
    expect([...((await asRoot())?.entries.keys() ?? [])]).toEqual([
      ...((await files.survey(ROOTS))?.entries.keys() ?? []),
    ]);
    await dockerExec(container, ['chmod', '700', `${ROOT}/.openhands/microagents/nested`]);
    await dockerExec(container, ['chown', 'root', `${ROOT}/.openhands/microagents/nested`]);
    expect(await asRoot()).toBeNull();
    // The user's own survey cannot enter that folder either: no survey at all.
    expect(await files.survey(ROOTS)).toBeNull();
  }, 60_000);
});
