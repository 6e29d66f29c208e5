import { spawn } from 'node:child_process';
import { OutputCollector, outputOf } from '../exec-output';
import { type ExecOptions, type ExecResult, TIMED_OUT_EXIT_CODE } from '../sandbox-workspace';

export interface ProcessExecOptions extends Omit<ExecOptions, 'user' | 'env'> {
  /** The command's whole environment. */
  env: NodeJS.ProcessEnv;
}

/**
 * Runs argv as a host process (a process sandbox's command) and waits for its end; on timeout it is killed
 * with its children. Each output stream keeps its first `maxOutput` bytes.
 */
export function processExec(argv: string[], options: ProcessExecOptions): Promise<ExecResult> {
  const { env, cwd, timeout, maxOutput } = options;
  return new Promise((resolve, reject) => {
    const [command = '', ...args] = argv;
    const child = spawn(command, args, {
      env,
      ...(cwd ? { cwd } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let timedOut = false;
    const timer = timeout
      ? setTimeout(() => {
          timedOut = true;
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        }, timeout * 1000)
      : undefined;
    const output = Promise.all([
      OutputCollector.read(child.stdout, maxOutput),
      OutputCollector.read(child.stderr, maxOutput),
    ]);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      void output.then(([stdout, stderr]) =>
        resolve({ exitCode: timedOut ? TIMED_OUT_EXIT_CODE : (code ?? 1), ...outputOf(stdout, stderr) }),
      );
    });
  });
}
