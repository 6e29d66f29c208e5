import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkLog } from '../../src/shared/api/network';
import type { SandboxInfo } from '../../src/shared/api/sandboxes';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  createConversation,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startWebServer } from '../sandbox/link/link-harness';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the gated egress attacks: ${skip}`);

/** Fetches through the sandbox's proxy (its environment); prints the body, or the HTTP status and exits 3. */
const fetchIn = (sandboxId: string, url: string, env = '') =>
  execIn(
    sandboxId,
    `${env} python3 -c 'import sys, urllib.request
try:
  print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode(), end="")
except urllib.error.HTTPError as e:
  print(e.code, end=""); sys.exit(3)' ${url}`,
  );

/**
 * A gated sandbox trying to get out where its policy says no: Dockhand's own API, the forwarded ports of
 * another sandbox, names that resolve to loopback or private addresses, a tool that ignores the proxy, and
 * killing its forwarder to be rid of it. The policy is `open` with everything named: only what is never
 * reachable stays closed.
 */
describe.skipIf(skip !== null)('egress from a gated sandbox', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let web: Awaited<ReturnType<typeof startWebServer>>;
  let attacker: string;
  let victim: string;
  let attackerConversation: string;

  const log = async () =>
    ((await service.api('GET', `/api/conversations/${attackerConversation}/network-log`)).json as NetworkLog)
      .entries;

  beforeAll(async () => {
    web = await startWebServer();
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Egress' } }],
    });
    service = await startSandboxService(
      {},
      {
        network: 'gated',
        resolver: async (host) => {
          if (host === 'private.test') return ['10.0.0.1'];
          if (host.endsWith('.test')) return ['127.0.0.1'];
          throw new Error(`${host} is not a test name`);
        },
      },
    );
    await useScriptedModel(service, llm, { egress_policy: 'open' });
    const first = await createConversation(service, {});
    const second = await createConversation(service, {});
    attackerConversation = first.id;
    attacker = (first.info as { sandbox_id: string }).sandbox_id;
    victim = (second.info as { sandbox_id: string }).sandbox_id;
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
    web?.server.close();
  });

  it('refuses names that resolve to loopback or a private address, unless the user named them', async () => {
    expect((await fetchIn(attacker, `http://rebind.test:${web.port}/`)).stdout).toBe('403');
    expect((await log()).at(-1)).toMatchObject({ host: 'rebind.test', rule: 'loopback address' });
    expect((await fetchIn(attacker, 'http://private.test/')).stdout).toBe('403');
    expect((await log()).at(-1)).toMatchObject({ host: 'private.test', rule: 'private address' });
  });

  it("refuses Dockhand's API, by a name the user allowed and by its address", async () => {
    await service.api('POST', `/api/conversations/${attackerConversation}/network-allow`, {
      body: { entry: 'dockhand.test', scope: 'conversation' },
    });
    await service.api('POST', `/api/conversations/${attackerConversation}/network-allow`, {
      body: { entry: '127.0.0.0/8', scope: 'conversation' },
    });
    expect((await fetchIn(attacker, `http://dockhand.test:${service.port}/api/settings`)).stdout).toBe('403');
    // An address the user allowed, sent to the proxy (its NO_PROXY would keep it on the sandbox's loopback).
    const byAddress = await fetchIn(
      attacker,
      `http://127.0.0.1:${service.port}/api/settings`,
      'NO_PROXY= no_proxy=',
    );
    expect(byAddress.stdout).toBe('403');
    expect((await log()).filter((entry) => entry.port === service.port).map((entry) => entry.rule)).toEqual([
      'dockhand port',
      'dockhand port',
    ]);
  });

  it("refuses another sandbox's forwarded port", async () => {
    void execIn(victim, 'cd /tmp && timeout 60 python3 -m http.server 18081 >/dev/null 2>&1');
    const info = await until(
      async () => (await service.api('GET', `/api/v1/sandboxes/${victim}`)).json as SandboxInfo,
      (sandbox) => (sandbox.exposed_urls ?? []).some((url) => url.sandbox_port === 18081),
      "the victim's preview",
    );
    const forwarded = info.exposed_urls?.find((url) => url.sandbox_port === 18081)?.port;
    expect(forwarded).toBeGreaterThan(0);
    expect((await fetchIn(attacker, `http://dockhand.test:${forwarded}/`)).stdout).toBe('403');
    expect((await log()).at(-1)).toMatchObject({ port: forwarded, allowed: false, rule: 'dockhand port' });
  });

  it('gives a tool that ignores the proxy no route, to the host or anywhere', async () => {
    const direct = await execIn(
      attacker,
      `python3 -c 'import socket, sys
for host, port in (("127.0.0.1", ${web.port}), ("10.0.0.1", 80), ("1.1.1.1", 443)):
  try:
    socket.create_connection((host, port), timeout=3); print("reached", host)
  except OSError as e:
    print(e.errno)'`,
    );
    // 111: nothing listens on the sandbox's own loopback; 101: no route off it.
    expect(direct.stdout).toBe('111\n101\n101\n');
  });

  it('gets its link back when the forwarder is killed (and never gets out around it)', async () => {
    // The sandbox's user cannot plant another pid for the next forwarder (run as root) to kill.
    const planted = await execIn(attacker, 'echo 1 > /opt/dockhand/bin/dockhand-link.pid');
    expect(planted.exitCode).not.toBe(0);
    const killed = await execIn(attacker, 'sudo kill -9 "$(cat /opt/dockhand/bin/dockhand-link.pid)"');
    expect(killed.exitCode).toBe(0);
    await service.api('POST', `/api/conversations/${attackerConversation}/network-allow`, {
      body: { entry: 'web.test', scope: 'conversation' },
    });
    await until(
      async () => (await fetchIn(attacker, `http://web.test:${web.port}/`)).stdout,
      (body) => body === 'hello from the host\n',
      'the link to come back',
    );
  });
});
