import type Docker from 'dockerode';
import { setTimeout as delay } from 'node:timers/promises';
import { OutputCollector, outputOf } from '../exec-output';
import type { ExecOptions, ExecResult } from '../sandbox-workspace';

export interface DockerExecOptions extends Omit<ExecOptions, 'user'> {
  /** The container user it runs as (root by default). */
  user?: string;
}

/**
 * `docker exec` of argv in a running container, without a TTY, with `env` as that exec's environment; waits
 * for its end and exit code. Each output stream keeps its first `maxOutput` bytes.
 */
export async function dockerExec(
  container: Docker.Container,
  argv: string[],
  options: DockerExecOptions = {},
): Promise<ExecResult> {
  const { user = 'root', env = {}, cwd, timeout, maxOutput } = options;
  // The engine cannot kill an exec, so the command kills itself with coreutils/busybox `timeout`.
  const cmd = timeout ? ['timeout', '-k', '5', String(timeout), ...argv] : argv;
  const exec = await container.exec({
    Cmd: cmd,
    User: user,
    Env: Object.entries(env).map(([name, value]) => `${name}=${value}`),
    ...(cwd ? { WorkingDir: cwd } : {}),
    AttachStdout: true,
    AttachStderr: true,
  });
  const stream = await exec.start({ hijack: true, stdin: false });
  const [stdout, stderr] = [new OutputCollector(maxOutput), new OutputCollector(maxOutput)];
  container.modem.demuxStream(stream, stdout.sink, stderr.sink);
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return { exitCode: await execExitCode(exec), ...outputOf(stdout, stderr) };
}

/** The exit code of an exec whose output has ended (the engine may report it a moment later). */
export async function execExitCode(exec: Docker.Exec): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const info = await exec.inspect();
    if (!info.Running && info.ExitCode !== null) return info.ExitCode;
    await delay(Math.min(5 * (attempt + 1), 50));
  }
  throw new Error(`Exec ${exec.id} did not report an exit code.`);
}
