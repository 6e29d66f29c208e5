import { spawn } from 'node:child_process';
import type Docker from 'dockerode';
import {
  type ContainerCommandResult,
  execExitCode,
  OutputCollector,
} from '../sandbox/files/container-command';

/** The exit code of a command that ran out of time (as coreutils `timeout` reports it). */
export const TIMED_OUT_EXIT_CODE = 124;

/**
 * Runs one command in a sandbox as its user, without a shell, and waits for its end. `env` is added to that
 * command's environment only (how secrets reach a command without being written anywhere). A command still
 * running after `timeoutSeconds` is killed and ends with TIMED_OUT_EXIT_CODE. Each output stream keeps its
 * first MAX_COMMAND_OUTPUT_BYTES (`truncated` says when more was dropped).
 */
export type SandboxExec = (
  argv: string[],
  env?: Record<string, string>,
  timeoutSeconds?: number,
) => Promise<ContainerCommandResult>;

/** `docker exec` of argv as `user` in a running container, with `env` as that exec's environment. */
export function dockerExec(container: Docker.Container, user: string): SandboxExec {
  return async (argv, env = {}, timeoutSeconds) => {
    // The engine cannot kill an exec, so the command kills itself with coreutils/busybox `timeout`.
    const cmd = timeoutSeconds ? ['timeout', '-k', '5', String(timeoutSeconds), ...argv] : argv;
    const exec = await container.exec({
      Cmd: cmd,
      User: user,
      Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const [stdout, stderr] = [new OutputCollector(), new OutputCollector()];
    container.modem.demuxStream(stream, stdout.sink, stderr.sink);
    await new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', reject);
    });
    return { exitCode: await execExitCode(exec), ...outputOf(stdout, stderr) };
  };
}

/** A host process (a process sandbox's command) with `baseEnv` plus `env`, killed with its children on timeout. */
export function processExec(baseEnv: NodeJS.ProcessEnv): SandboxExec {
  return (argv, env = {}, timeoutSeconds) =>
    new Promise((resolve, reject) => {
      const [command = '', ...args] = argv;
      const child = spawn(command, args, {
        env: { ...baseEnv, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      let timedOut = false;
      const timer = timeoutSeconds
        ? setTimeout(() => {
            timedOut = true;
            if (child.pid) process.kill(-child.pid, 'SIGKILL');
          }, timeoutSeconds * 1000)
        : undefined;
      const output = Promise.all([OutputCollector.read(child.stdout), OutputCollector.read(child.stderr)]);
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

function outputOf(stdout: OutputCollector, stderr: OutputCollector) {
  return { stdout: stdout.text(), stderr: stderr.text(), truncated: stdout.truncated || stderr.truncated };
}
