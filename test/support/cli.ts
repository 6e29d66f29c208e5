import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI_ENTRY = path.join(ROOT, 'bin', 'dockhand.js');
const BUILT_CLI = path.join(ROOT, 'out', 'main', 'cli.js');
const SERVICE_SOURCES = [path.join(ROOT, 'src', 'service'), path.join(ROOT, 'src', 'shared')];

function newestChange(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((newest, entry) => {
    const full = path.join(dir, entry.name);
    const time = entry.isDirectory() ? newestChange(full) : statSync(full).mtimeMs;
    return Math.max(newest, time);
  }, 0);
}

/** Runs `electron-vite build` when out/main/cli.js is missing or older than the service sources. */
export function ensureCliBuilt(): void {
  const builtAt = existsSync(BUILT_CLI) ? statSync(BUILT_CLI).mtimeMs : 0;
  if (builtAt > Math.max(...SERVICE_SOURCES.map(newestChange))) return;
  execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

const STEERING = ['DOCKHAND_SECRETS', 'DOCKHAND_SESSION_API_KEY', 'DOCKHAND_DATA_DIR', 'DOCKHAND_PORT'];

/**
 * The test process's environment without the variables that would steer the CLI, with `overrides`
 * applied (`undefined` removes a variable).
 */
export function cliEnv(overrides: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged = { ...process.env, ...overrides };
  return Object.fromEntries(
    Object.entries(merged).filter(
      ([name, value]) => value !== undefined && (!STEERING.includes(name) || name in overrides),
    ),
  );
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function collect(child: ChildProcess): () => { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return () => ({ stdout, stderr });
}

function exited(child: ChildProcess, output: () => { stdout: string; stderr: string }): Promise<CliResult> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode, ...output() });
      return;
    }
    child.once('exit', (code, signal) => resolve({ code, signal, ...output() }));
  });
}

/** Runs `dockhand <args>` to completion (at most `timeoutMs`). */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<CliResult> {
  const child = spawn(process.execPath, [CLI_ENTRY, ...args], { env, cwd: ROOT, timeout: timeoutMs });
  return exited(child, collect(child));
}

export interface RunningCli {
  child: ChildProcess;
  /** The line `serve` printed first. */
  banner: string;
  url: string;
  port: number;
  key: string;
  /** Sends `signal` and waits for the process to end. */
  stop(signal?: NodeJS.Signals): Promise<CliResult>;
}

const BANNER = /^Dockhand is running at (http:\/\/127\.0\.0\.1:(\d+))\/#key=(\S+)$/m;

/**
 * Starts `dockhand serve <args>`, optionally under a `wrapper` command (e.g. `dbus-run-session --`) and from
 * another copy of the project (`root`), and waits until it prints where it runs. It runs in its own process
 * group, which `stop` signals as a whole.
 */
export async function startServe(
  args: string[],
  env: NodeJS.ProcessEnv,
  wrapper: string[] = [],
  root = ROOT,
): Promise<RunningCli> {
  const command = [...wrapper, process.execPath, path.join(root, 'bin', 'dockhand.js'), 'serve', ...args];
  const child = spawn(command[0] ?? process.execPath, command.slice(1), { env, cwd: root, detached: true });
  const output = collect(child);
  const done = exited(child, output);
  const banner = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed no banner:\n${output().stderr}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = BANNER.exec(output().stdout);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    });
    void done.then((result) => {
      clearTimeout(timer);
      reject(new Error(`serve exited (${result.code ?? result.signal}) before listening:\n${result.stderr}`));
    });
  });
  return {
    child,
    banner: banner[0],
    url: banner[1] ?? '',
    port: Number(banner[2]),
    key: banner[3] ?? '',
    stop: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null && child.pid !== undefined) {
        process.kill(-child.pid, signal);
      }
      return done;
    },
  };
}
