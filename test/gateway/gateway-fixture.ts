import type { Logger } from 'pino';
import { ConversationStore } from '../../src/service/conversations/conversation-store';
import type { GatewayEndpoint } from '../../src/service/gateway/model-gateway';
import { blankConversation } from '../support/conversation-records';
import { startScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';

/** The provider key the gateway holds; no answer or log line may ever show it. */
export const REAL_KEY = 'sk-real-provider-key-7f3a9c1e5b2d4068';

/** A service with its model settings, the scripted provider behind them, and conversations to call for. */
export interface GatewayFixture {
  service: TestService;
  llm: ScriptedLlm;
  /** `http://127.0.0.1:<gateway port>`. */
  base: string;
  /** A new conversation (stored, not started) and its gateway endpoint. */
  conversation(id?: string): Promise<{ id: string; endpoint: GatewayEndpoint }>;
  /** A raw call to the gateway. */
  call(
    path: string,
    init: { token?: string | null; headers?: Record<string, string>; body?: unknown; method?: string },
  ): Promise<Response>;
  close(): Promise<void>;
}

let counter = 0;

export async function startGatewayFixture(options: {
  model: string;
  steps?: ScriptedStep[];
  settings?: Record<string, unknown>;
  /** The service's logger (default: silent). */
  logger?: Logger;
}): Promise<GatewayFixture> {
  const llm = await startScriptedLlm(options.steps ?? []);
  const service = await startTestService(options.logger ? { logger: options.logger } : {});
  const saved = await service.api('POST', '/api/settings', {
    body: {
      llm_model: options.model,
      llm_api_key: REAL_KEY,
      llm_base_url: llm.baseUrl,
      ...options.settings,
    },
  });
  if (saved.status !== 200) throw new Error(`settings not saved: ${saved.status} ${saved.text}`);
  const gateway = service.service.gateway;
  const base = `http://127.0.0.1:${gateway.port}`;
  const store = new ConversationStore(service.service.context.db);
  return {
    service,
    llm,
    base,
    async conversation(id = `gwconv${++counter}${Date.now().toString(36)}`) {
      store.insert(blankConversation(id));
      return { id, endpoint: gateway.endpointFor(id, base) };
    },
    call(path, init) {
      const headers: Record<string, string> = { 'content-type': 'application/json', ...init.headers };
      if (init.token) headers.authorization = `Bearer ${init.token}`;
      return fetch(`${base}${path}`, {
        method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    },
    async close() {
      await service.close();
      await llm.close();
    },
  };
}

/** The data of each event of an SSE body, parsed, with its event name. */
export function sseEvents(text: string): { event: string | null; data: Record<string, unknown> | string }[] {
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? null;
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      try {
        return { event, data: JSON.parse(data) as Record<string, unknown> };
      } catch {
        return { event, data };
      }
    });
}
