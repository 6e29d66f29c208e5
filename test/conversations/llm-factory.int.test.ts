import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmClientConfig, LlmFactory, LlmRequest } from '../../src/service/agent/llm/llm-types';
import { resolveModelRoute } from '../../src/service/agent/llm/model-routing';
import type { TestService } from '../support/service';
import { llmResponse } from '../support/llm-response';
import {
  closeSandboxService,
  conversationEvents,
  startSandboxService,
  untilConversation,
} from '../sandbox/support';

// The model client does not depend on the sandbox: a process sandbox keeps this test quick (and needs Linux).
const linux = process.platform === 'linux';
if (!linux) console.warn('Skipping the LLM factory test: it runs in a process sandbox, which needs Linux');

describe.skipIf(!linux)('a service given its own LLM factory', () => {
  let service: TestService;
  const configs: LlmClientConfig[] = [];
  const requests: LlmRequest[] = [];

  /** A model that names conversations "Injected title" and answers everything else "Injected reply". */
  const factory: LlmFactory = (config) => {
    configs.push(config);
    return {
      route: resolveModelRoute(config.model, config.baseUrl),
      complete: async (request) => {
        requests.push(request);
        const text = request.system.includes('[dockhand:title]') ? 'Injected title' : 'Injected reply';
        return llmResponse({
          text,
          usage: { prompt: 12, completion: 3 },
          responseId: `resp-${requests.length}`,
        });
      },
    };
  };

  beforeAll(async () => {
    service = await startSandboxService({ llmFactory: factory }, { provider: 'process' });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_api_key: 'sk-injected', llm_base_url: '' },
    });
  });

  afterAll(async () => {
    await closeSandboxService(service);
  });

  it("makes each conversation's model client with it: the agent's replies and the title come from it", async () => {
    // What the other test's check made and asked before this one ran is not this conversation's.
    const made = configs.length;
    const asked = requests.length;
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'Say hello' },
    });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await untilConversation(
      service,
      id,
      (c) => c.agent_state === 'awaiting_user_input' && c.title === 'Injected title',
      'the injected model to answer and name the conversation',
    );
    const replies = (await conversationEvents(service, id)).filter(
      (e) => e.source === 'agent' && e.action === 'message',
    );
    expect(replies.map((e) => e.message)).toEqual(['Injected reply']);
    expect(configs.slice(made)).toHaveLength(1);
    expect(configs[made]).toMatchObject({ model: 'openai/gpt-4o', apiKey: 'sk-injected', baseUrl: null });
    const conversationRequests = requests.slice(asked).filter((r) => !r.system.includes('[dockhand:title]'));
    expect(JSON.stringify(conversationRequests[0]?.messages)).toContain('Say hello');
  });

  it('checks a model configuration with a client of its own', async () => {
    const checked = await service.api('POST', '/api/settings/llm-check', {
      body: { llm_model: 'openai/gpt-4o-mini', llm_api_key: 'sk-checked' },
    });
    expect(checked.json).toMatchObject({ ok: true, key_source: 'request' });
    expect(configs.at(-1)).toMatchObject({
      model: 'openai/gpt-4o-mini',
      apiKey: 'sk-checked',
      baseUrl: null,
    });
  });
});
