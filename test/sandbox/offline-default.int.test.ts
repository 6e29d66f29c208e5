import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VERSION } from '../../src/service/index';
import { BUILT_IN_IMAGE } from '../../src/service/sandbox/sandbox-specs';
import { openSseStream } from '../support/event-clients';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import {
  closeSandboxService,
  conversationEvents,
  docker,
  dockerSkipReason,
  untilConversation,
  useScriptedModel,
} from './support';

// Nothing names an image: the service's default is the public one, which this engine cannot pull.
vi.stubEnv('DOCKHAND_SANDBOX_IMAGE', '');
const OWN = `dockhand/sandbox:${VERSION}`;

async function reason(): Promise<string | null> {
  const engine = await dockerSkipReason();
  if (engine) return engine;
  if (
    await docker
      .getImage(BUILT_IN_IMAGE)
      .inspect()
      .then(
        () => true,
        () => false,
      )
  )
    return `${BUILT_IN_IMAGE} is present, so nothing stands in for it`;
  return docker
    .getImage(OWN)
    .inspect()
    .then(
      () => null,
      () => `${OWN} is missing (run \`npm run sandbox:image\`)`,
    );
}
const skip = await reason();
if (skip) console.warn(`Skipping the offline default image test: ${skip}`);

describe.skipIf(skip !== null)(
  'a conversation with no image configured, on an engine with no registry',
  () => {
    let service: TestService;
    let llm: ScriptedLlm;

    beforeAll(async () => {
      llm = await startScriptedLlm([], {
        channels: [{ marker: '[dockhand:title]', step: { text: 'Offline' } }],
      });
      service = await startTestService({ sandbox: { network: 'none', idlePauseSeconds: 0 } });
      await useScriptedModel(service, llm);
    });

    afterAll(async () => {
      await closeSandboxService(service);
      await llm?.close();
      vi.unstubAllEnvs();
    });

    it('runs in Dockhand’s own image, and says so in its status updates', async () => {
      const spec = (await service.api('GET', '/api/v1/sandbox-specs/search')).json as {
        items: { id: string }[];
      };
      expect(spec.items[0]?.id).toBe(BUILT_IN_IMAGE);

      llm.push(
        {
          toolCalls: [{ id: 'c1', name: 'execute_bash', args: { command: 'id -un', security_risk: 'LOW' } }],
        },
        { text: 'Done.' },
      );
      const created = await service.api('POST', '/api/conversations', {
        body: { initial_user_msg: 'who runs?' },
      });
      expect(created.status).toBe(200);
      const id = (created.json as { conversation_id: string }).conversation_id;
      const ready = await untilConversation(
        service,
        id,
        (c) => c.agent_state === 'awaiting_user_input',
        'the agent to answer',
      );
      expect(ready).toMatchObject({ status: 'RUNNING', runtime_status: 'STATUS$READY' });
      expect((await conversationEvents(service, id)).find((e) => e.observation === 'run')?.content).toMatch(
        /^dockhand\b/,
      );
      const sandboxId = String(ready.sandbox_id);
      const container = await docker.getContainer(`dockhand-${sandboxId}`).inspect();
      expect(container.Config.Image).toBe(OWN);

      // Started again on a new sandbox, with a client listening: the substitution is a status update.
      await service.api('POST', `/api/conversations/${id}/stop`);
      expect((await service.api('DELETE', `/api/v1/sandboxes/${sandboxId}`)).status).toBe(200);
      const stream = await openSseStream(service, id);
      await service.api('POST', `/api/conversations/${id}/start`, { body: {} });
      await untilConversation(service, id, (c) => c.runtime_status === 'STATUS$READY', 'the restart');
      const updates = stream
        .events()
        .filter((frame) => frame.event === 'status_update')
        .map((frame) => JSON.parse(frame.data) as { id: string; message: string });
      stream.close();
      expect(updates).toContainEqual({
        status_update: true,
        type: 'info',
        id: 'STATUS$STARTING_RUNTIME',
        message: expect.stringMatching(
          new RegExp(`^${BUILT_IN_IMAGE} could not be pulled \\(.+\\); using Dockhand's own image ${OWN}$`),
        ),
      });
    });
  },
);
