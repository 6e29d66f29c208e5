import { describe, expect, it } from 'vitest';
import type { NewEvent } from '../../shared/api/events';
import type { SandboxExec } from '../sandbox/sandbox-workspace';
import { SandboxFileError } from '../sandbox/files/sandbox-files';
import { gitHookStep, type HookStepDeps } from './hook-step';
import { MAX_REPOSITORY_SCRIPT_BYTES } from './setup-script';
import type { RepositoryCode } from './repository-code';

const SCRIPT = '#!/bin/sh\nnpm test\n';

/** The hook install script's answers: `check` says `state`, `install` says `installed` (or fails). */
function scriptedExec(state: string, install: 'installed' | 'fail' = 'installed') {
  const modes: string[] = [];
  const exec: SandboxExec = async (argv) => {
    const mode = argv.at(-1) as string;
    modes.push(mode);
    if (mode === 'install' && install === 'fail') {
      return { exitCode: 1, stdout: '', stderr: 'read-only file system', truncated: false };
    }
    return { exitCode: 0, stdout: mode === 'check' ? state : 'installed', stderr: '', truncated: false };
  };
  return { exec, modes };
}

const SCRIPT_PATH = '/w/repo/.openhands/pre-commit.sh';

function step(
  exec: SandboxExec,
  answer: number | null,
  previous: Promise<unknown> = Promise.resolve(),
  withScript = true,
  script = SCRIPT,
) {
  const asked: RepositoryCode[] = [];
  const recorded: NewEvent[] = [];
  const warnings: string[] = [];
  const deps: HookStepDeps = {
    exec,
    files: {
      read: async (p, options) => {
        const bytes = Buffer.from(p === SCRIPT_PATH ? script : '');
        if (bytes.length > (options?.maxBytes ?? Infinity)) throw new SandboxFileError('too_large', p);
        return bytes;
      },
      stat: async (p) =>
        withScript && p === SCRIPT_PATH
          ? {
              path: p,
              name: 'pre-commit.sh',
              type: 'file',
              size: script.length,
              mode: 0o755,
              uid: 0,
              gid: 0,
              mtimeMs: 0,
              linkTarget: null,
            }
          : null,
    },
    repoDir: '/w/repo',
    approve: async (code) => {
      asked.push(code);
      return answer;
    },
    record: (event) => void recorded.push(event),
    warn: (message) => void warnings.push(message),
  };
  return { hook: gitHookStep(previous, deps), asked, recorded, warnings };
}

describe('gitHookStep', () => {
  it('asks about a hook without its wrapper, then installs it under the approved action', async () => {
    const { exec, modes } = scriptedExec('missing');
    const { hook, asked, recorded } = step(exec, 7);
    expect(await hook.approved).toBe(7);
    await hook.installed;
    expect(asked).toEqual([
      {
        kind: 'git_hook',
        name: '.openhands/pre-commit.sh',
        content: SCRIPT,
        command: "/w/repo/.openhands/pre-commit.sh # as the repository's pre-commit hook",
      },
    ]);
    expect(modes).toEqual(['check', 'install']);
    expect(recorded).toEqual([
      {
        source: 'environment',
        message: 'Installed .openhands/pre-commit.sh as the pre-commit hook.',
        observation: 'run',
        content: 'Installed .openhands/pre-commit.sh as the pre-commit hook.',
        extras: { hidden: true },
        cause: 7,
      },
    ]);
  });

  it('asks nothing, not even git, when the repository has no pre-commit script', async () => {
    const { exec, modes } = scriptedExec('absent');
    const { hook, asked } = step(exec, 7, Promise.resolve(), false);
    expect(await hook.approved).toBeNull();
    await hook.installed;
    expect(asked).toEqual([]);
    expect(modes).toEqual([]);
  });

  it('asks nothing when the wrapper is in place', async () => {
    const { exec, modes } = scriptedExec('present');
    const { hook, asked } = step(exec, 7);
    expect(await hook.approved).toBeNull();
    await hook.installed;
    expect(asked).toEqual([]);
    expect(modes).toEqual(['check']);
  });

  it('installs nothing the user refused', async () => {
    const { exec, modes } = scriptedExec('missing');
    const { hook, recorded } = step(exec, null);
    expect(await hook.approved).toBeNull();
    await hook.installed;
    expect(modes).toEqual(['check']);
    expect(recorded).toEqual([]);
  });

  it('waits for the step before it, and fails with it', async () => {
    let finishSetup = () => {};
    const setup = new Promise<void>((resolve) => (finishSetup = resolve));
    const { exec, modes } = scriptedExec('missing');
    const { hook } = step(exec, 3, setup);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(modes).toEqual([]);
    finishSetup();
    expect(await hook.approved).toBe(3);

    const failed = step(scriptedExec('missing').exec, 3, Promise.reject(new Error('setup broke')));
    await expect(failed.hook.approved).rejects.toThrow('setup broke');
    await expect(failed.hook.installed).rejects.toThrow('setup broke');
  });

  it('only warns when the hook cannot be checked or installed', async () => {
    const broken: SandboxExec = async () => ({ exitCode: 2, stdout: '', stderr: 'no git', truncated: false });
    const unchecked = step(broken, 7);
    expect(await unchecked.hook.approved).toBeNull();
    expect(unchecked.warnings).toEqual(['Installing the .openhands/pre-commit.sh hook failed: no git']);

    const uninstalled = step(scriptedExec('missing', 'fail').exec, 7);
    await uninstalled.hook.installed;
    expect(uninstalled.recorded).toEqual([]);
    expect(uninstalled.warnings).toEqual([
      'Installing the .openhands/pre-commit.sh hook failed: read-only file system',
    ]);
  });

  it('only warns, asking nothing, about a hook over the size cap', async () => {
    const big = step(
      scriptedExec('missing').exec,
      7,
      Promise.resolve(),
      true,
      'x'.repeat(MAX_REPOSITORY_SCRIPT_BYTES + 1),
    );
    expect(await big.hook.approved).toBeNull();
    expect(big.asked).toEqual([]);
    expect(big.warnings).toEqual([
      `.openhands/pre-commit.sh is larger than ${MAX_REPOSITORY_SCRIPT_BYTES} bytes: it was not installed.`,
    ]);
  });

  it('fails the start on any other error', async () => {
    const { hook } = step(async () => Promise.reject(new Error('container gone')), 7);
    await expect(hook.approved).rejects.toThrow('container gone');
    await expect(hook.installed).rejects.toThrow('container gone');
  });
});
