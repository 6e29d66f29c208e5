import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../../src/shared/api/events';
import type { NetworkLog } from '../../../src/shared/api/network';
import type { SandboxInfo } from '../../../src/shared/api/sandboxes';
import { startScriptedLlm, type ScriptedLlm } from '../../support/scripted-llm';
import type { TestService } from '../../support/service';
import { until } from '../../support/until';
import {
  closeSandboxService,
  conversationEvents,
  createConversation,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../support';
import { startWebServer } from './link-harness';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the gated conversation tests: ${skip}`);

/** python's urllib in the sandbox, as its user: the container's environment names the proxy. */
const fetchIn = (sandboxId: string, url: string) =>
  execIn(
    sandboxId,
    `python3 -c 'import sys, urllib.request
try:
  print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode(), end="")
except urllib.error.HTTPError as e:
  print(e.code, end=""); sys.exit(3)' ${url}`,
  );

// One conversation's network, step by step: the allow of one test is what a later one relies on, so in order.
describe.skipIf(skip !== null)('a conversation in a gated sandbox', { shuffle: false }, () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let web: Awaited<ReturnType<typeof startWebServer>>;
  let conversationId: string;
  let sandboxId: string;

  beforeAll(async () => {
    web = await startWebServer();
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Gated' } }] });
    service = await startSandboxService(
      {},
      {
        network: 'gated',
        // No real DNS: the test's names lead to its loopback servers.
        resolver: async (host) => {
          if (host.endsWith('.test')) return ['127.0.0.1'];
          throw new Error(`${host} is not a test name`);
        },
      },
    );
    await useScriptedModel(service, llm);
    const created = await createConversation(service, { network_policy: 'model_only' });
    conversationId = created.id;
    sandboxId = (created.info as { sandbox_id: string }).sandbox_id;
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
    web?.server.close();
  });

  it('has only loopback, with the proxy in the environment of its commands', async () => {
    const interfaces = await execIn(sandboxId, 'ls /sys/class/net; echo "$HTTPS_PROXY"');
    expect(interfaces.stdout).toBe('lo\nhttp://127.0.0.1:3128\n');
  });

  it('refuses what model_only does not allow: an event in the conversation and an entry in its network log', async () => {
    const refused = await fetchIn(sandboxId, `http://web.test:${web.port}/`);
    expect(refused.stdout).toBe('403');
    const events = await until(
      () => conversationEvents(service, conversationId),
      (list) => list.some((event) => event.extras?.error_id === 'EGRESS_REFUSED'),
      'the refusal event',
    );
    const refusal = events.find((event) => event.extras?.error_id === 'EGRESS_REFUSED') as V0Event;
    expect(refusal.observation).toBe('error');
    expect(refusal.extras?.egress).toEqual({
      host: 'web.test',
      port: web.port,
      rule: 'preset model_only',
      address: null,
      held: false,
    });
    const log = (await service.api('GET', `/api/conversations/${conversationId}/network-log`))
      .json as NetworkLog;
    expect(log.entries.at(-1)).toMatchObject({ host: 'web.test', port: web.port, allowed: false });
    const trajectory = (await service.api('GET', `/api/conversations/${conversationId}/trajectory`)).json as {
      network_log: unknown[];
    };
    expect(trajectory.network_log).toEqual(log.entries);
  });

  it('lets a destination through once allowed for the conversation', async () => {
    const bad = await service.api('POST', `/api/conversations/${conversationId}/network-allow`, {
      body: { entry: 'not a host', scope: 'conversation' },
    });
    expect(bad.status).toBe(422);
    const allowed = await service.api('POST', `/api/conversations/${conversationId}/network-allow`, {
      body: { entry: `web.test:${web.port}`, scope: 'conversation' },
    });
    expect(allowed.status).toBe(200);
    expect((await fetchIn(sandboxId, `http://web.test:${web.port}/`)).stdout).toBe('hello from the host\n');
    const log = (await service.api('GET', `/api/conversations/${conversationId}/network-log`))
      .json as NetworkLog;
    expect(log.entries.at(-1)).toMatchObject({
      host: 'web.test',
      allowed: true,
      rule: `allow web.test:${web.port}`,
    });
  });

  it('holds a refused connection in confirmation mode, and lets it through when allowed, without a retry', async () => {
    await service.api('POST', '/api/settings', { body: { confirmation_mode: true } });
    try {
      const fetching = fetchIn(sandboxId, `http://held.test:${web.port}/`);
      await until(
        () => conversationEvents(service, conversationId),
        (list) =>
          list.some((event) => (event.extras?.egress as { host?: string } | undefined)?.host === 'held.test'),
        'the held connection to be told',
      );
      const held = (await conversationEvents(service, conversationId)).find(
        (event) => (event.extras?.egress as { host?: string } | undefined)?.host === 'held.test',
      );
      expect(held?.extras?.egress).toMatchObject({ held: true });
      await service.api('POST', `/api/conversations/${conversationId}/network-allow`, {
        body: { entry: 'held.test', scope: 'conversation' },
      });
      expect((await fetching).stdout).toBe('hello from the host\n');
      const log = (await service.api('GET', `/api/conversations/${conversationId}/network-log`))
        .json as NetworkLog;
      expect(log.entries.filter((entry) => entry.host === 'held.test').map((entry) => entry.allowed)).toEqual(
        [false, true],
      );
    } finally {
      await service.api('POST', '/api/settings', { body: { confirmation_mode: false } });
    }
  });

  it("refuses the service's own port even when the user names it", async () => {
    await service.api('POST', `/api/conversations/${conversationId}/network-allow`, {
      body: { entry: 'dockhand.test', scope: 'always' },
    });
    const settings = (await service.api('GET', '/api/settings')).json as { egress_allow: string[] };
    expect(settings.egress_allow).toEqual(['dockhand.test']);
    expect((await fetchIn(sandboxId, `http://dockhand.test:${service.port}/api/settings`)).stdout).toBe(
      '403',
    );
    const log = (await service.api('GET', `/api/conversations/${conversationId}/network-log`))
      .json as NetworkLog;
    expect(log.entries.at(-1)).toMatchObject({
      host: 'dockhand.test',
      allowed: false,
      rule: 'dockhand port',
    });
  });

  it('shows a port an app opens among the sandbox exposed URLs, forwarded to this machine', async () => {
    void execIn(
      sandboxId,
      'cd /tmp && timeout 60 python3 -m http.server --bind 127.0.0.1 18080 >/dev/null 2>&1',
    );
    const sandbox = await until(
      async () => (await service.api('GET', `/api/v1/sandboxes/${sandboxId}`)).json as SandboxInfo,
      (info) => (info.exposed_urls ?? []).some((url) => url.sandbox_port === 18080),
      'the preview of port 18080',
    );
    const preview = sandbox.exposed_urls?.find((url) => url.sandbox_port === 18080);
    expect(preview).toMatchObject({ name: 'PREVIEW', url: `http://127.0.0.1:${preview?.port}` });
    expect((await fetch(`${preview?.url}/`)).status).toBe(200);
    await execIn(sandboxId, 'pkill -f "http.server --bind 127.0.0.1 18080"');
    await until(
      async () => (await service.api('GET', `/api/v1/sandboxes/${sandboxId}`)).json as SandboxInfo,
      (info) => !(info.exposed_urls ?? []).some((url) => url.sandbox_port === 18080),
      'the closed port to go',
    );
  });

  it('stops the link on pause and brings it back on resume, with the ports forwarded into the sandbox', async () => {
    const { context } = service.service;
    await context.forwardIntoSandbox(sandboxId, 19400, { host: '127.0.0.1', port: web.port });
    const inside = `http://127.0.0.1:19400/`;
    expect((await fetchIn(sandboxId, inside)).stdout).toBe('hello from the host\n');
    await context.sandboxes.pause(sandboxId);
    expect(context.sandboxLink(sandboxId)).toBeNull();
    await context.sandboxes.resume(sandboxId);
    expect(context.sandboxLink(sandboxId)).not.toBeNull();
    expect((await fetchIn(sandboxId, `http://web.test:${web.port}/`)).stdout).toBe('hello from the host\n');
    expect((await fetchIn(sandboxId, inside)).stdout).toBe('hello from the host\n');
  });
});
