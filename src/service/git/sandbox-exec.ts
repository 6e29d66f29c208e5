import { spawn } from 'node:child_process';
import type Docker from 'dockerode';
import { PassThrough } from 'node:stream';
import { type ContainerCommandResult, execExitCode } from '../sandbox/files/container-command';

/** The exit code of a command that ran out of time (as coreutils `timeout` reports it). */
export const TIMED_OUT_EXIT_CODE = 124;

/**
 * Runs one command in a sandbox as its user, without a shell, and waits for its end. `env` is added to that
 * command's environment only (how secrets reach a command without being written anywhere). A command still
 * running after `timeoutSeconds` is killed and ends with TIMED_OUT_EXIT_CODE.
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
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    container.modem.demuxStream(stream, stdout, stderr);
    const [out, err] = [collect(stdout), collect(stderr)];
    await new Promise<void>((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('close', resolve);
      stream.once('error', reject);
    });
    stdout.end();
    stderr.end();
    return { exitCode: await execExitCode(exec), stdout: await out, stderr: await err };
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
      const [out, err] = [collect(child.stdout), collect(child.stderr)];
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('close', (code) => {
        clearTimeout(timer);
        void Promise.all([out, err]).then(([stdout, stderr]) =>
          resolve({ exitCode: timedOut ? TIMED_OUT_EXIT_CODE : (code ?? 1), stdout, stderr }),
        );
      });
    });
}

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
