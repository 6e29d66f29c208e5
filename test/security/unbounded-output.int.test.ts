import Docker from 'dockerode';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { processExec } from '../../src/service/sandbox/process/process-exec';
import { MAX_COMMAND_OUTPUT_BYTES } from '../../src/service/sandbox/sandbox-workspace';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE as MAX_MCP_LINE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { DockerExecTransport } from '../../src/service/sandbox/docker/docker-mcp-transport';
import { DockerSandboxFiles } from '../../src/service/sandbox/files/docker-files';
import { LocalSandboxFiles } from '../../src/service/sandbox/files/local-files';
import { dockerUnavailableReason, removeContainer, startTestContainer } from '../support/test-sandboxes';

/** A command printing far more than the service keeps, on stdout and on stderr. */
const FLOOD = `head -c ${MAX_COMMAND_OUTPUT_BYTES + 1024 * 1024} /dev/zero | tr '\\0' x; head -c ${MAX_COMMAND_OUTPUT_BYTES + 1024 * 1024} /dev/zero | tr '\\0' y >&2`;

function expectCapped(result: { exitCode: number; stdout: string; stderr: string; truncated: boolean }) {
  expect(result.exitCode).toBe(0);
  expect(result.truncated).toBe(true);
  expect(result.stdout.length).toBe(MAX_COMMAND_OUTPUT_BYTES);
  expect(result.stderr.length).toBe(MAX_COMMAND_OUTPUT_BYTES);
  expect(result.stdout.startsWith('xxx')).toBe(true);
}

const docker = new Docker();
const skip = await dockerUnavailableReason(docker);
if (skip) console.warn(`Skipping the Docker output caps: ${skip}`);

describe('a command that floods its output cannot fill the service memory', () => {
  it('process sandbox: each stream keeps its first bytes, the command still runs to its end', async () => {
    expectCapped(await processExec(['sh', '-c', FLOOD], { env: process.env }));
    const small = await processExec(['sh', '-c', 'printf ok'], { env: process.env });
    expect(small).toEqual({ exitCode: 0, stdout: 'ok', stderr: '', truncated: false });
  });

  it('process sandbox: a file that is larger than the reader allows is refused, not read whole', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dockhand-bounded-'));
    try {
      await writeFile(join(dir, 'big'), Buffer.alloc(1024 * 1024));
      const files = new LocalSandboxFiles();
      await expect(files.read(join(dir, 'big'), { maxBytes: 1024 })).rejects.toMatchObject({
        code: 'too_large',
      });
      expect((await files.read(join(dir, 'big'), { maxBytes: 1024 * 1024 })).length).toBe(1024 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  describe.skipIf(skip !== null)('docker sandbox', () => {
    let container: Docker.Container;
    beforeAll(async () => {
      container = await startTestContainer(docker, 'unbounded-output');
    });
    afterAll(() => removeContainer(container));

    it('a root exec and a sandbox-user exec each keep their first bytes', async () => {
      expectCapped(await dockerExec(container, ['sh', '-c', FLOOD]));
      expectCapped(await dockerExec(container, ['sh', '-c', FLOOD], { user: 'dockhand' }));
    });

    it('a file larger than the reader allows is refused from its archive header', async () => {
      await dockerExec(container, ['sh', '-c', 'head -c 1048576 /dev/zero > /tmp/big']);
      const files = new DockerSandboxFiles(container);
      await expect(files.read('/tmp/big', { maxBytes: 1024 })).rejects.toMatchObject({ code: 'too_large' });
    });

    it('an MCP server that sends a line without end is cut off once it passes the read buffer cap', async () => {
      const transport = new DockerExecTransport(container, {
        command: 'sh',
        args: ['-c', `head -c ${MAX_MCP_LINE + 1024 * 1024} /dev/zero | tr '\\0' x; sleep 60`],
        user: 'dockhand',
        workingDir: '/tmp',
        env: {},
      });
      const errors: string[] = [];
      transport.onerror = (error) => errors.push(error.message);
      const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
      await transport.start();
      await closed;
      expect(errors).toEqual([`ReadBuffer exceeded maximum size of ${MAX_MCP_LINE} bytes`]);
    });
  });
});
