import type Docker from 'dockerode';
import { setTimeout as delay } from 'node:timers/promises';
import { PassThrough } from 'node:stream';

export interface ContainerCommandResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs a one-off command in a container, without a TTY, and waits for its end and exit code. */
export async function runInContainer(
  container: Docker.Container,
  cmd: string[],
  user = 'root',
): Promise<ContainerCommandResult> {
  const exec = await container.exec({ Cmd: cmd, User: user, AttachStdout: true, AttachStderr: true });
  const stream = await exec.start({ hijack: true, stdin: false });
  const stdout = collector();
  const stderr = collector();
  container.modem.demuxStream(stream, stdout.sink, stderr.sink);
  await new Promise<void>((resolve, reject) => {
    stream.once('end', resolve);
    stream.once('close', resolve);
    stream.once('error', reject);
  });
  return { exitCode: await execExitCode(exec), stdout: stdout.text(), stderr: stderr.text() };
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

function collector(): { sink: PassThrough; text(): string } {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { sink, text: () => Buffer.concat(chunks).toString('utf8') };
}
