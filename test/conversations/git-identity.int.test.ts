import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  conversationEvents,
  dockerSkipReason,
  startSandboxService,
  untilConversation,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the git identity tests: ${skip}`);

describe.skipIf(skip !== null)('the git identity the agent commits with', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Identity' } }],
    });
    service = await startSandboxService();
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  /** What `git var GIT_AUTHOR_IDENT` prints in a new conversation's sandbox, up to the timestamp. */
  async function authorInSandbox(): Promise<string> {
    llm.push(
      {
        toolCalls: [
          {
            id: 'call_1',
            name: 'execute_bash',
            args: { command: 'git var GIT_AUTHOR_IDENT', security_risk: 'LOW' },
          },
        ],
      },
      { text: 'Done.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'who am I?' },
    });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await untilConversation(
      service,
      id,
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to answer',
    );
    const output =
      (await conversationEvents(service, id)).find((e) => e.observation === 'run')?.content ?? '';
    await service.api('DELETE', `/api/conversations/${id}`);
    return output.replace(/ \d+ [+-]\d{4}[\s\S]*$/, '');
  }

  async function shownIdentity(): Promise<string> {
    const settings = (await service.api('GET', '/api/settings')).json as {
      git_user_name: string;
      git_user_email: string;
    };
    return `${settings.git_user_name} <${settings.git_user_email}>`;
  }

  it('is the one the settings show when none is saved', async () => {
    await useScriptedModel(service, llm);
    expect(await shownIdentity()).toBe('dockhand <dockhand@localhost>');
    expect(await authorInSandbox()).toBe('dockhand <dockhand@localhost>');
  });

  it('is the saved one once saved', async () => {
    await useScriptedModel(service, llm, {
      git_user_name: 'Ada Lovelace',
      git_user_email: 'ada@example.com',
    });
    expect(await shownIdentity()).toBe('Ada Lovelace <ada@example.com>');
    expect(await authorInSandbox()).toBe('Ada Lovelace <ada@example.com>');
  });
});
