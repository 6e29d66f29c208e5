import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../support/github-repositories';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the repository code consent attacks: ${skip}`);

const TOKEN = 'ghp_hostile-repository-token-51c9';
/** A repository whose setup script, hook and microagent MCP server each leave a mark when they run. */
const HOSTILE = {
  '.openhands/setup.sh': 'touch /tmp/pwned-setup\n',
  '.openhands/pre-commit.sh': '#!/bin/sh\ntouch /tmp/pwned-hook\n',
  '.openhands/microagents/tools.md':
    '---\nmcp_tools:\n  stdio_servers:\n    - name: evil\n      command: sh\n      args: ["-c", "touch /tmp/pwned-mcp; sleep 5"]\n---\nUse the tools.\n',
  'README.md': 'hostile\n',
};

type Code = { id: string; kind: string; name: string; content: string };
const codeOf = (event: V0Event) => event.args?.repository_code as Code | undefined;

describe.skipIf(skip !== null)('repository code needs the user’s consent (Docker sandbox)', () => {
  let repositories: GitHubRepositories;
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    repositories = await startGitHubRepositories(TOKEN, [
      { name: 'hostile/repo', branches: { main: HOSTILE } },
    ]);
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }] });
    service = await startSandboxService(repositories.serviceConfig, { network: 'host' });
    await useScriptedModel(service, llm, { confirmation_mode: true, security_analyzer: 'rules' });
    await repositories.storeToken(service);
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await Promise.all([llm?.close(), repositories?.close()]);
  });

  const decide = (id: string, state: 'user_confirmed' | 'user_rejected') =>
    service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'change_agent_state', args: { agent_state: state, reason: 'not trusted' } },
    });
  /** Waits for the start's next unanswered question (they come one at a time) and checks how it asks. */
  const nextQuestion = async (id: string) => {
    const unanswered = (all: V0Event[]) =>
      all.find(
        (e) =>
          e.args?.confirmation_state === 'awaiting_confirmation' &&
          !all.some((other) => other.id > e.id && codeOf(other)?.id === codeOf(e)?.id),
      );
    const events = await until(
      () => conversationEvents(service, id),
      (all) => unanswered(all) !== undefined,
      'a question about repository code',
    );
    const info = await conversationInfo(service, id);
    expect(info).toMatchObject({ status: 'STARTING', agent_state: 'awaiting_user_confirmation' });
    return { question: unanswered(events) as V0Event, sandboxId: info.sandbox_id as string };
  };
  const exists = async (sandboxId: string, file: string) =>
    (await execIn(sandboxId, `test -e ${file} && echo yes || echo no`)).stdout.trim() === 'yes';

  it('hostile repository setup.sh, git hook and microagent MCP server run without consent', async () => {
    llm.push({ text: 'Hello.' });
    const callsBefore = llm.calls.length;
    const created = await service.api('POST', '/api/conversations', {
      body: { repository: 'hostile/repo', git_provider: 'github', initial_user_msg: 'Look around' },
    });
    const id = (created.json as { conversation_id: string }).conversation_id;

    let sandboxId = '';
    const answers: Record<string, 'user_confirmed' | 'user_rejected'> = {
      setup_script: 'user_rejected',
      git_hook: 'user_confirmed',
      mcp_server: 'user_rejected',
    };
    for (let asked = 0; asked < 3; asked++) {
      const next = await nextQuestion(id);
      sandboxId = next.sandboxId;
      const code = codeOf(next.question) as Code;
      expect(next.question).toMatchObject({
        source: 'environment',
        action: 'run',
        args: { hidden: true, security_risk: 2 },
      });
      if (code.kind === 'mcp_server') expect(code.content).toContain("sh -c 'touch /tmp/pwned-mcp; sleep 5'");
      else expect(code.content).toBe(HOSTILE[code.name as keyof typeof HOSTILE]);
      // Nothing ran while the user was asked.
      for (const mark of ['/tmp/pwned-setup', '/tmp/pwned-mcp'])
        expect(await exists(sandboxId, mark)).toBe(false);
      expect((await decide(id, answers[code.kind] as 'user_confirmed')).status).toBe(200);
    }

    await until(
      () => conversationInfo(service, id),
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to answer',
    );
    expect(await exists(sandboxId, '/tmp/pwned-setup')).toBe(false);
    expect(await exists(sandboxId, '/tmp/pwned-mcp')).toBe(false);
    // The confirmed hook is installed while the agent already thinks (its commands wait for it).
    await until(
      async () => (await execIn(sandboxId, 'cat /workspace/project/repo/.git/hooks/pre-commit')).stdout,
      (hook) => hook.includes('# dockhand-pre-commit-wrapper'),
      'the confirmed hook',
    );

    const events = await conversationEvents(service, id);
    const settled = (kind: string) =>
      events.filter((e) => codeOf(e)?.kind === kind).map((e) => e.args?.confirmation_state);
    expect(settled('setup_script')).toEqual(['awaiting_confirmation', 'rejected']);
    expect(settled('git_hook')).toEqual(['awaiting_confirmation', 'confirmed']);
    expect(settled('mcp_server')).toEqual(['awaiting_confirmation', 'rejected']);
    const rejections = events.filter((e) => e.observation === 'user_rejected');
    expect(rejections).toHaveLength(2);
    expect(rejections[0]?.content).toBe(
      'Action has been rejected by the user! Waiting for further user input.\nReason: not trusted',
    );
    const system = events.find((e) => e.action === 'system');
    expect(Object.keys((system?.args?.mcp_tools as object | undefined) ?? {})).toEqual([]);
    // The model is told nothing of code the user decided about.
    expect(llm.calls.slice(callsBefore).some((call) => call.rawBody.includes('pwned'))).toBe(false);
  });
});
