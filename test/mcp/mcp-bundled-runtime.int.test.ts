import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { pack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { bundledNode } from '../../src/service/sandbox/docker/bundled-runtime';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { followStatusMessages } from '../support/event-clients';
import { until } from '../support/until';
import {
  closeSandboxService,
  docker,
  dockerSkipReason,
  removeTestImage,
  startSandboxService,
  TEST_IMAGE,
  untilConversation,
  useScriptedModel,
} from '../sandbox/support';
import { bundleEchoServer } from './fixtures/bundle';
import { deliverFixture, FIXTURE_DIR } from './fixtures/deliver';

const runtime = bundledNode();
const skip =
  (await dockerSkipReason()) ??
  (runtime ? null : 'the service runs on no Linux node binary of a known architecture to copy');
if (skip) console.warn(`Skipping the bundled MCP runtime tests: ${skip}`);

/** The sandbox image without node (or npm), built from the test image for this file. */
const IMAGE = `dockhand/test-sandbox-without-node:${randomBytes(4).toString('hex')}`;

async function buildImageWithoutNode(): Promise<void> {
  const context = pack();
  context.entry(
    { name: 'Dockerfile' },
    `FROM ${TEST_IMAGE}\nRUN rm -f /usr/bin/node /usr/bin/nodejs /usr/bin/npm /usr/bin/npx\n`,
  );
  context.finalize();
  const stream = await docker.buildImage(Readable.from(context), {
    t: IMAGE,
    networkmode: 'none',
    labels: { 'dev.dockhand.managed': 'true' },
    rm: true,
    forcerm: true,
  });
  await new Promise<void>((resolve, reject) =>
    docker.modem.followProgress(stream, (error, output: { error?: string }[]) => {
      const failure = error ?? output.find((line) => line.error)?.error;
      if (failure) reject(failure instanceof Error ? failure : new Error(failure));
      else resolve();
    }),
  );
}

// node waits for the test to copy the fixture in, then runs it.
const WAIT_AND_IMPORT = `import { existsSync } from 'node:fs';
while (!existsSync('${FIXTURE_DIR}/ready')) await new Promise((resolve) => setTimeout(resolve, 100));
await import('${FIXTURE_DIR}/echo-server.mjs');`;

describe.skipIf(skip !== null)(
  'MCP stdio servers run with the bundled runtime in an image without node',
  () => {
    let service: TestService;
    let llm: ScriptedLlm;
    let bundle: string;

    beforeAll(async () => {
      await buildImageWithoutNode();
      bundle = await bundleEchoServer();
      llm = await startScriptedLlm([], {
        channels: [{ marker: '[dockhand:title]', step: { text: 'MCP title' } }],
      });
      service = await startSandboxService({}, { image: IMAGE });
      await useScriptedModel(service, llm);
    }, 120_000);

    afterAll(async () => {
      await closeSandboxService(service);
      await llm?.close();
      await removeTestImage(IMAGE);
    });

    it('copies node into /opt/dockhand/bin and runs the server with it; uvx and npx without npm warn', async () => {
      llm.push({ toolCalls: [{ id: 'call_echo', name: 'echo', args: { text: 'hi' } }] }, { text: 'Done.' });
      const created = await service.api('POST', '/api/conversations', {
        body: {
          initial_user_msg: 'use the MCP tools',
          mcp_config: {
            stdio_servers: [
              { name: 'echo', command: 'node', args: ['--input-type=module', '-e', WAIT_AND_IMPORT] },
              { name: 'uv-server', command: 'uvx', args: ['mcp-server-fetch'] },
              { name: 'npx-server', command: 'npx', args: ['-y', 'some-mcp-server'] },
            ],
          },
        },
      });
      expect(created.status).toBe(200);
      const id = (created.json as { conversation_id: string }).conversation_id;
      const statuses = await followStatusMessages(service, id);
      const sandboxId = (await untilConversation(service, id, (c) => c.sandbox_id !== null, 'the sandbox'))
        .sandbox_id as string;
      const name = `dockhand-${sandboxId}`;
      await until(
        async () =>
          (
            await docker
              .getContainer(name)
              .inspect()
              .catch(() => null)
          )?.State.Running,
        (running) => running === true,
        'the container to run',
      );
      const container = docker.getContainer(name);
      expect((await dockerExec(container, ['sh', '-c', 'command -v node'])).exitCode).not.toBe(0);
      await deliverFixture(name, bundle);

      await untilConversation(
        service,
        id,
        (c) => c.agent_state === 'awaiting_user_input',
        'the final answer',
      );
      statuses.close();
      const events = (
        (await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }
      ).events;
      expect(events.filter((e) => e.observation === 'mcp').map((e) => e.content)).toEqual([
        'echo: hi\ncwd=/workspace/project uid=1000 FIXTURE_ENV=',
      ]);
      const copied = await dockerExec(container, ['/opt/dockhand/bin/node', '--version']);
      expect(copied.stdout.trim()).toBe(process.version);
      const executables = await dockerExec(
        container,
        ['sh', '-c', 'for p in /proc/[0-9]*; do readlink "$p/exe"; done'],
        { user: 'dockhand' }, // the server's user (the sandbox drops the capability to read others' processes)
      );
      expect(executables.stdout.split('\n')).toContain('/opt/dockhand/bin/node');

      const missing = (command: string, server: string) =>
        `MCP server "${server}" could not start: command "${command}" was not found in the sandbox image ${IMAGE}.`;
      expect(statuses.messages()).toContain(missing('uvx', 'uv-server'));
      expect(statuses.messages().some((s) => s.includes('"echo"'))).toBe(false);
      if (runtime?.npm) {
        expect(statuses.messages()).not.toContain(missing('npx', 'npx-server'));
        expect((await dockerExec(container, ['/opt/dockhand/bin/npx', '--version'])).exitCode).toBe(0);
      } else {
        // npm is not beside the node binary the tests run on, so npx cannot be provided.
        expect(statuses.messages()).toContain(missing('npx', 'npx-server'));
      }
    });
  },
);
