import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { followStatusMessages } from '../support/event-clients';
import { until } from '../support/until';
import { startSandboxService, untilConversation, useScriptedModel } from '../sandbox/support';
import { bundleEchoServer } from './fixtures/bundle';
import { PIXEL_BASE64 } from './fixtures/image-events';

const skip = process.platform === 'linux' ? null : 'process sandboxes need Linux';
if (skip) console.warn(`Skipping the MCP stdio tests on the process sandbox: ${skip}`);

/** Whether a host process runs with `needle` in its command line. */
function hostProcessRuns(needle: string): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false; // ended meanwhile
      }
    });
}

describe.skipIf(skip !== null)('MCP stdio servers on the process sandbox', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let folder: string;
  let server: string;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(tmpdir(), 'mcp-process-fixture-'));
    server = path.join(folder, 'echo-server.mjs');
    writeFileSync(server, await bundleEchoServer());
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'MCP title' } }],
    });
    service = await startSandboxService({}, { provider: 'process' });
    await useScriptedModel(service, llm);
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs the server on the host in the working directory and calls its tools, images included', async () => {
    llm.push(
      { toolCalls: [{ id: 'call_echo', name: 'echo', args: { text: 'hi' } }] },
      { toolCalls: [{ id: 'call_pixel', name: 'pixel', args: {} }] },
      { text: 'All done.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: {
        initial_user_msg: 'use the MCP tools',
        mcp_config: {
          stdio_servers: [
            { name: 'echo', command: process.execPath, args: [server], env: { FIXTURE_ENV: 'on-host' } },
            { name: 'ghost', command: 'no-such-mcp-server' },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    const statuses = await followStatusMessages(service, id);
    await untilConversation(service, id, (c) => c.agent_state === 'awaiting_user_input', 'the final answer');
    statuses.close();

    const { sandbox_id: sandboxId } = (await service.api('GET', `/api/conversations/${id}`)).json as {
      sandbox_id: string;
    };
    const workspace = await service.service.context.sandboxes.workspace(sandboxId);
    const events = (
      (await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }
    ).events;
    expect(events.filter((e) => e.observation === 'mcp').map((e) => e.content)).toEqual([
      // The server got its env value; as an MCP secret it is masked in events.
      `echo: hi\ncwd=${workspace.workingDir} uid=${process.getuid?.() ?? ''} FIXTURE_ENV=<secret_hidden>`,
      'one pixel',
    ]);
    // The vision model got the image after the tool results.
    const last = llm.calls.filter((c) => c.body?.tools).at(-1)?.body?.messages as unknown[];
    expect(last.slice(-2)).toEqual([
      { role: 'tool', tool_call_id: 'call_pixel', content: 'one pixel' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Images returned by the tool pixel (call call_pixel):' },
          { type: 'text', text: 'Image 1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL_BASE64}` } },
        ],
      },
    ]);
    expect(statuses.messages()).toContain(
      'MCP server "ghost" could not start: command "no-such-mcp-server" was not found on this computer\'s PATH.',
    );
    expect(statuses.messages().some((s) => s.includes('"echo"'))).toBe(false);
    expect(hostProcessRuns(server)).toBe(true);

    await service.api('POST', `/api/conversations/${id}/stop`);
    await until(
      async () => hostProcessRuns(server),
      (running) => !running,
      'the stdio server to end after the conversation closed',
    );
  });
});
