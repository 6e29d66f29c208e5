import { expect } from 'vitest';
import {
  startScriptedLlm,
  type RecordedLlmRequest,
  type ScriptedLlm,
  type ScriptedReply,
} from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  startSandboxService,
  createConversation,
  useScriptedModel,
} from '../sandbox/support';

/**
 * The scripted agent: runs the shell command written after `RUN:` in the first user message, then ends.
 * Each call answers from its own request, so conversations running at once do not share a script.
 */
function agentStep(request: RecordedLlmRequest): ScriptedReply {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  if (messages.at(-1)?.role === 'tool') return { text: 'Done.' };
  const command = /RUN:(.*)$/s.exec(JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? ''));
  const text = command ? (JSON.parse(`"${command[1]?.replace(/"\s*\]?\s*$/, '')}"`) as string) : 'true';
  return { toolCalls: [{ name: 'execute_bash', args: { command: text, security_risk: 'LOW' } }] };
}

/** A Docker sandbox service whose scripted agent runs one shell command per conversation. */
export interface LocalConversations {
  service: TestService;
  /** Starts a conversation whose agent runs `command` in the copy, and waits for it to finish. */
  converse(
    body: Record<string, unknown>,
    command: string,
  ): Promise<{ id: string; sandbox: string; info: Record<string, unknown> }>;
  /** `POST /api/conversations/{id}/local-repository/export` with `body`. */
  exportWork(id: string, body: Record<string, unknown>): ReturnType<TestService['api']>;
  close(): Promise<void>;
}

export async function startLocalConversations(): Promise<LocalConversations> {
  const llm: ScriptedLlm = await startScriptedLlm([], {
    channels: [{ marker: '[dockhand:title]', step: { text: 'Local work' } }],
  });
  const service = await startSandboxService();
  await useScriptedModel(service, llm);
  return {
    service,
    async converse(body, command) {
      llm.push(agentStep, agentStep);
      const { id, info } = await createConversation(service, { ...body, initial_user_msg: `RUN:${command}` });
      expect(info.status).toBe('RUNNING');
      return { id, sandbox: info.sandbox_id as string, info };
    },
    exportWork: (id, body) =>
      service.api('POST', `/api/conversations/${id}/local-repository/export`, { body }),
    async close() {
      await closeSandboxService(service);
      await llm.close();
    },
  };
}
