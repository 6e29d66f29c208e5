import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { inheritedEnvironment } from '../config';

/**
 * Settings that keep git on this machine from running anything a repository names: its hooks, its
 * file-system monitor, the command behind its alternates, and automatic maintenance. Given with `-c`,
 * they take precedence over the repository's own `.git/config`.
 */
const SAFE_CONFIG = [
  'core.hooksPath=/dev/null',
  'core.fsmonitor=false',
  'core.untrackedCache=false',
  'core.alternateRefsCommand=true',
  'core.protectNTFS=true',
  'core.protectHFS=true',
  'gc.auto=0',
  'maintenance.auto=false',
  'fetch.recurseSubmodules=false',
  'submodule.recurse=false',
  'transfer.fsckObjects=true',
  'fetch.fsckObjects=true',
  'protocol.allow=never',
  'protocol.file.allow=always',
];

/** Output collected beyond this is refused: objects from a sandbox could make git print without end. */
export const MAX_GIT_OUTPUT_BYTES = 256 * 1024 ** 2;
/** Only the start of git's messages is kept. */
const MAX_STDERR_BYTES = 64 * 1024;

/** git printed more than the caller allows; it was stopped. */
export class GitOutputTooLarge extends Error {
  constructor(command: string, limit: number) {
    super(`git ${command} printed more than ${Math.round(limit / 1024 ** 2)} MiB, so it was stopped`);
  }
}

export interface HostGitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
}

export interface HostGitOptions {
  /** Fed to git's standard input. */
  input?: Readable;
  /** Collected stdout beyond this rejects with GitOutputTooLarge (default MAX_GIT_OUTPUT_BYTES). */
  maxOutputBytes?: number;
}

/** The environment of host git: no inherited GIT_* variables (they could point it elsewhere), no prompts. */
function hostGitEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(inheritedEnvironment()).filter(([name]) => !name.startsWith('GIT_')),
  );
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    LC_ALL: 'C',
  };
}

type GitChild = ChildProcessByStdio<Writable | null, Readable, Readable>;

/** Starts git with SAFE_CONFIG, never through a shell; its stdin is `input` when given. */
function spawnGit(directory: string, args: string[], input?: Readable): GitChild {
  const configArgs = SAFE_CONFIG.flatMap((setting) => ['-c', setting]);
  const child = spawn('git', ['--no-pager', ...configArgs, '-C', directory, ...args], {
    env: hostGitEnvironment(),
    stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  }) as GitChild;
  // git may stop reading early (it failed): its exit code tells, not the broken pipe.
  if (input && child.stdin) pipeline(input, child.stdin).catch(() => input.destroy());
  return child;
}

/** git's exit code and the start of its messages, once it has ended. */
function ended(child: GitChild): Promise<{ exitCode: number; stderr: string }> {
  const err: Buffer[] = [];
  let kept = 0;
  child.stderr.on('data', (chunk: Buffer) => {
    if (kept < MAX_STDERR_BYTES) err.push(chunk.subarray(0, MAX_STDERR_BYTES - kept));
    kept += chunk.length;
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({ exitCode: code ?? 1, stderr: Buffer.concat(err).toString('utf8').trim() }),
    );
  });
}

/**
 * Runs git on this machine in `directory` with SAFE_CONFIG, never through a shell, and collects its output
 * (at most `maxOutputBytes`). Only the plumbing this module needs is run: nothing that checks files out,
 * filters or diffs contents.
 */
export async function hostGit(
  directory: string,
  args: string[],
  options: HostGitOptions = {},
): Promise<HostGitResult> {
  const limit = options.maxOutputBytes ?? MAX_GIT_OUTPUT_BYTES;
  const child = spawnGit(directory, args, options.input);
  const done = ended(child);
  const out: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  child.stdout.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= limit) out.push(chunk);
    else if (!tooLarge) {
      tooLarge = true;
      out.length = 0;
      child.kill('SIGKILL');
    }
  });
  const { exitCode, stderr } = await done;
  if (tooLarge) throw new GitOutputTooLarge(args[0] ?? '', limit);
  return { exitCode, stdout: Buffer.concat(out), stderr };
}

/** git's output as a stream (for contents too large to hold), and how it ended. */
export interface HostGitStream {
  stdout: Readable;
  done: Promise<{ exitCode: number; stderr: string }>;
}

/** Runs git like `hostGit`, handing its output over as it comes instead of collecting it. */
export function hostGitStream(directory: string, args: string[]): HostGitStream {
  const child = spawnGit(directory, args);
  return { stdout: child.stdout, done: ended(child) };
}

/** The first line of git's output, or null when git failed. */
export async function hostGitLine(directory: string, args: string[]): Promise<string | null> {
  const result = await hostGit(directory, args);
  return result.exitCode === 0 ? (result.stdout.toString('utf8').split('\n')[0] ?? '') : null;
}
