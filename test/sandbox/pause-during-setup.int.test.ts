import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  containerState,
  dockerSkipReason,
  startSandboxService,
  untilConversation,
  useScriptedModel,
} from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the pause-during-set-up test: ${skip}`);

/** The engine's answer about a container, or 'no answer' after 10 s. */
function answered(call: Promise<unknown>): Promise<unknown> {
  return Promise.race([call, new Promise((resolve) => setTimeout(() => resolve('no answer'), 10_000))]);
}

/**
 * The agent may think before the shell's start, `git init` and the hooks are done. A pause as soon as the
 * conversation is ready must wait for them: an exec that starts while its container is being frozen leaves
 * `runc init` frozen, and the engine then never answers about that container again.
 */
describe.skipIf(skip !== null)('a sandbox paused as soon as its conversation is ready', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Pause' } }] });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  it('pauses, resumes and is deleted with the engine answering each time', async () => {
    for (let round = 0; round < 3; round++) {
      llm.push({ text: 'Thinking done.' });
      const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'hi' } });
      const id = (created.json as { conversation_id: string }).conversation_id;
      const ready = await untilConversation(
        service,
        id,
        (c) => c.runtime_status === 'STATUS$READY',
        'the conversation to be ready',
      );
      const sandboxId = String(ready.sandbox_id);
      expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).status).toBe(200);
      expect(await answered(containerState(sandboxId))).toBe('paused');
      expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/resume`)).status).toBe(200);
      expect(await answered(containerState(sandboxId))).toBe('running');
      expect((await service.api('DELETE', `/api/conversations/${id}`)).status).toBe(200);
      expect(await answered(containerState(sandboxId))).toBeNull();
    }
  }, 120_000);
});
