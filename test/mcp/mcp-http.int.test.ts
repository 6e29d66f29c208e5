import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valuesFoundInFiles } from '../support/data-folder';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startHttpMcpFixture, type HttpMcpFixture } from './fixtures/http-server';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the MCP HTTP tests: ${skip}`);

const SHTTP_KEY = 'shttp-k3y-value';
const SSE_KEY = 'sse-k3y-value';

describe.skipIf(skip !== null)('MCP servers over streamable HTTP and SSE', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let fixture: HttpMcpFixture;

  beforeAll(async () => {
    fixture = await startHttpMcpFixture();
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'MCP title' } }],
    });
    service = await startSandboxService();
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
    await fixture?.close();
  });

  const eventsOf = (id: string) => conversationEvents(service, id);
  const agentState = async (id: string) => (await conversationInfo(service, id)).agent_state;

  it('calls tools of a settings server and a request server with their keys; Stop cancels a call', async () => {
    await useScriptedModel(service, llm, {
      mcp_config: { shttp_servers: [{ url: fixture.shttpUrl, api_key: SHTTP_KEY }] },
    });
    const shttpName = `${new URL(fixture.shttpUrl).hostname.replaceAll('.', '_')}_${new URL(fixture.shttpUrl).port}_mcp`;
    const sseName = shttpName.replace(/_mcp$/, '_sse');
    llm.push(
      {
        toolCalls: [
          { id: 'call_a', name: `${shttpName}_echo`, args: { text: 'over http' } },
          { id: 'call_b', name: `${sseName}_echo`, args: { text: 'over sse' } },
        ],
      },
      { toolCalls: [{ id: 'call_c', name: `${sseName}_sleep`, args: { seconds: 60 } }] },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: {
        initial_user_msg: 'call the remote tools',
        mcp_config: { sse_servers: [{ url: fixture.sseUrl, api_key: SSE_KEY }] },
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;

    await until(
      () => eventsOf(id),
      (events) =>
        events.some(
          (e) => e.action === 'call_tool_mcp' && (e.args as { name: string }).name.endsWith('_sleep'),
        ),
      'the sleep call',
    );
    const system = (await eventsOf(id)).find((e) => e.action === 'system');
    expect(Object.keys((system?.args as { mcp_tools: object }).mcp_tools).sort()).toEqual(
      ['echo', 'pixel', 'sleep', 'think', 'wipe']
        .flatMap((t) => [`${shttpName}_${t}`, `${sseName}_${t}`])
        .sort(),
    );
    const results = (await eventsOf(id)).filter((e) => e.observation === 'mcp');
    expect(results.map((e) => e.content?.split('\n')[0])).toEqual(['echo: over http', 'echo: over sse']);
    expect(fixture.authorizations).toEqual(
      expect.arrayContaining([`Bearer ${SHTTP_KEY}`, `Bearer ${SSE_KEY}`]),
    );
    expect(new Set(fixture.authorizations)).toEqual(new Set([`Bearer ${SHTTP_KEY}`, `Bearer ${SSE_KEY}`]));

    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'change_agent_state', args: { agent_state: 'stopped' } },
    });
    await until(
      () => agentState(id),
      (s) => s === 'stopped',
      'the stop',
    );
    await until(
      async () => fixture.log.cancelled,
      (c) => c.length === 1,
      'notifications/cancelled at the server',
    );

    expect(valuesFoundInFiles(service.dataDir, [SHTTP_KEY, SSE_KEY])).toEqual([]);
    await service.api('DELETE', `/api/conversations/${id}`);
  });
});
