import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerInfo } from '../../../src/shared/api/server';
import { startScriptedLlm, type ScriptedLlm } from '../../support/scripted-llm';
import type { TestService } from '../../support/service';
import { until } from '../../support/until';
import {
  closeSandboxService,
  createConversation,
  docker,
  dockerSkipReason,
  execIn,
  instanceId,
  startSandboxService,
  useScriptedModel,
} from '../support';
import { startWebServer } from './link-harness';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the gated warm pool test: ${skip}`);

describe.skipIf(skip !== null)('a gated warm-pool container', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let web: Awaited<ReturnType<typeof startWebServer>>;

  beforeAll(async () => {
    web = await startWebServer();
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Pool' } }] });
    service = await startSandboxService(
      {},
      { network: 'gated', warmPool: 1, resolver: async () => ['127.0.0.1'] },
    );
    await useScriptedModel(service, llm, { egress_allow: ['web.test'] });
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
    web?.server.close();
  });

  it('has its link running when a conversation claims it', async () => {
    await until(
      async () => ((await service.api('GET', '/server_info')).json as ServerInfo).sandbox.warm_pool,
      (pool) => pool.ready === 1 && pool.filling === 0,
      'a ready warm container',
    );
    const [pooled] = await docker.listContainers({
      all: true,
      filters: { label: [`dev.dockhand.instance=${instanceId(service)}`, 'dev.dockhand.pool=true'] },
    });
    const pooledId = pooled?.Labels['dev.dockhand.sandbox_id'] ?? '';
    // Started before the pool paused it: nothing of the link is left for the claim to wait for.
    expect(service.service.context.sandboxLink(pooledId)).not.toBeNull();
    const { info } = await createConversation(service, {});
    const sandboxId = (info as { sandbox_id: string }).sandbox_id;
    expect(sandboxId).toBe(pooledId);
    const fetched = await execIn(
      sandboxId,
      `python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=20).read().decode(), end="")' http://web.test:${web.port}/`,
    );
    expect(fetched.stdout).toBe('hello from the host\n');
  });
});
