import { expect } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { closeSandboxService, startSandboxService, useScriptedModel } from '../sandbox/support';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';

// What the agent sets up in the workspace, then commits: files, a binary, links out of the workspace.
const SETUP = [
  "printf 'hello\\n' > hello.txt",
  'mkdir -p src docs build .openhands/microagents',
  "printf 'old\\n' > src/old.ts && printf 'keep\\n' > src/keep.ts && printf 'doc\\n' > docs/a.md",
  "printf 'build/\\n*.log\\n' > .gitignore && touch build/out.js debug.log",
  "printf '\\211PNG\\000\\001' > image.png",
  'ln -s /etc etc-link',
  "printf 'keep\\n' > /tmp/outside.txt && ln -s /tmp/outside.txt trap.txt",
  "printf -- '---\\nname: house-rules\\n---\\nUse tabs.\\n' > .openhands/microagents/house-rules.md",
  'git add -A && git commit -qm initial',
].join(' && ');

export interface WorkspaceConversation {
  service: TestService;
  llm: ScriptedLlm;
  id: string;
  sandboxId: string;
  /** A keyed request under `/api/conversations/<id>`. */
  api(
    method: string,
    path: string,
    options?: Parameters<TestService['api']>[2],
  ): ReturnType<TestService['api']>;
  /** Runs `command` in the sandbox as a user `run` action and waits for its observation. */
  runAsUser(command: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * A running conversation whose agent has set up a committed workspace in a Docker sandbox (host networking,
 * so the app ports show as web hosts). In it: hello.txt, src/, docs/, an ignored build/, image.png,
 * .openhands/microagents/house-rules.md, and the symlinks etc-link -> /etc and trap.txt -> /tmp/outside.txt.
 */
export async function startWorkspaceConversation(): Promise<WorkspaceConversation> {
  const llm = await startScriptedLlm([], {
    channels: [{ marker: '[dockhand:title]', step: { text: 'Workspace title' } }],
  });
  const service = await startSandboxService({}, { network: 'host' });
  let id = '';
  const api: WorkspaceConversation['api'] = (method, path, options) =>
    service.api(method, `/api/conversations/${id}${path}`, options);
  const userRuns = async () =>
    ((await api('GET', '/events?limit=100')).json as { events: V0Event[] }).events.filter(
      (e) => e.source === 'user' && e.observation === 'run',
    ).length;
  const close = async () => {
    await closeSandboxService(service);
    await llm.close();
  };
  try {
    await useScriptedModel(service, llm);
    llm.push(
      { toolCalls: [{ name: 'execute_bash', args: { command: SETUP, security_risk: 'LOW' } }] },
      { text: 'The workspace is ready.' },
    );
    const created = await service.api('POST', '/api/conversations', { body: { initial_user_msg: 'set up' } });
    id = (created.json as { conversation_id: string }).conversation_id;
    const ready = await until(
      async () => (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to set up the workspace',
    );
    return {
      service,
      llm,
      id,
      sandboxId: ready.sandbox_id as string,
      api,
      runAsUser: async (command) => {
        const before = await userRuns();
        const run = await api('POST', '/events', { body: { action: 'run', args: { command } } });
        expect(run.json).toEqual({ success: true });
        await until(userRuns, (count) => count > before, `the command ${command}`);
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
