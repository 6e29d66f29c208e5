/**
 * Compares 200 short commands through one persistent ShellSession with 200 separate `docker exec`
 * calls (create + start + end of output) in one dockhand/sandbox container. Fails below a 3x speed-up.
 * Run: npx tsx bench/sandbox-shell.ts
 */
import Docker from 'dockerode';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { DockerShellTransport } from '../src/service/sandbox/shell/docker-transport';
import { ShellSession } from '../src/service/sandbox/shell/shell-session';
import { dockerUnavailableReason, removeContainer, startTestContainer } from '../test/support/test-sandboxes';

const COMMANDS = 200;
const REQUIRED_SPEEDUP = 3;

async function timeShellSession(container: Docker.Container): Promise<number> {
  const session = new ShellSession(new DockerShellTransport(container));
  await session.start();
  const started = performance.now();
  for (let i = 0; i < COMMANDS; i++) {
    const result = await session.execute({ command: `echo ${i}` });
    if (result.output !== String(i)) throw new Error(`echo ${i} answered ${JSON.stringify(result.output)}`);
  }
  const elapsed = performance.now() - started;
  await session.close();
  return elapsed;
}

async function timeDockerExec(container: Docker.Container): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < COMMANDS; i++) {
    const exec = await container.exec({
      Cmd: ['/bin/bash', '-c', `echo ${i}`],
      User: 'dockhand',
      AttachStdout: true,
      AttachStderr: true,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    container.modem.demuxStream(stream, stdout, process.stderr);
    await new Promise((resolve, reject) => {
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    const output = Buffer.concat(chunks).toString().trim();
    if (output !== String(i)) throw new Error(`docker exec echo ${i} answered ${JSON.stringify(output)}`);
  }
  return performance.now() - started;
}

const docker = new Docker();
const unavailable = await dockerUnavailableReason(docker);
if (unavailable) {
  console.error(`sandbox-shell bench: cannot run, ${unavailable}`);
  process.exit(2);
}
const container = await startTestContainer(docker, 'sandbox-shell-bench');
try {
  const shellMs = await timeShellSession(container);
  const execMs = await timeDockerExec(container);
  const speedup = execMs / shellMs;
  const perCommand = (ms: number) => `${(ms / COMMANDS).toFixed(2)} ms/command`;
  console.log(`ShellSession: ${COMMANDS} commands in ${shellMs.toFixed(0)} ms (${perCommand(shellMs)})`);
  console.log(`docker exec:  ${COMMANDS} commands in ${execMs.toFixed(0)} ms (${perCommand(execMs)})`);
  console.log(`speed-up: ${speedup.toFixed(1)}x (required: ${REQUIRED_SPEEDUP}x)`);
  if (speedup < REQUIRED_SPEEDUP) process.exitCode = 1;
} finally {
  await removeContainer(container);
}
