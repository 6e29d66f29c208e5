import { spawn } from 'node:child_process';
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
  'gc.auto=0',
  'maintenance.auto=false',
  'fetch.recurseSubmodules=false',
  'submodule.recurse=false',
  'transfer.fsckObjects=true',
  'fetch.fsckObjects=true',
  'protocol.allow=never',
  'protocol.file.allow=always',
];

export interface HostGitResult {
  exitCode: number;
  stdout: Buffer;
  stderr: string;
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

/**
 * Runs git on this machine in `directory` with SAFE_CONFIG, never through a shell, and collects its output.
 * Only the plumbing this module needs is run: nothing that checks files out, filters or diffs contents.
 */
export function hostGit(directory: string, args: string[]): Promise<HostGitResult> {
  const configArgs = SAFE_CONFIG.flatMap((setting) => ['-c', setting]);
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-pager', ...configArgs, '-C', directory, ...args], {
      env: hostGitEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.once('error', reject);
    child.once('close', (code) =>
      resolve({
        exitCode: code ?? 1,
        stdout: Buffer.concat(out),
        stderr: Buffer.concat(err).toString('utf8').trim(),
      }),
    );
  });
}

/** The first line of git's output, or null when git failed. */
export async function hostGitLine(directory: string, args: string[]): Promise<string | null> {
  const result = await hostGit(directory, args);
  return result.exitCode === 0 ? (result.stdout.toString('utf8').split('\n')[0] ?? '') : null;
}
