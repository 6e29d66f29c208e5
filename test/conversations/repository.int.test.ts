import { until } from '../support/until';
import { openEventSocket, openSseStream } from '../support/event-clients';
import { valuesFoundInFiles } from '../support/data-folder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { suggestedTaskPrompt } from '../../src/service/agent/prompts/task-prompts';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../support/github-repositories';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the repository conversation test: ${skip}`);

const TOKEN = 'ghp_repository-e2e-token-5c2a';
const BROKEN = 'def add(a, b):\n    return a - b\n';
const TESTS = 'from app import add\nassert add(2, 3) == 5, "add is broken"\nprint("tests passed")\n';

// Real parts only but the model: a fake GitHub API and a git smart-HTTP server on 127.0.0.1 serving a private
// repository, a Docker sandbox on the host network (to reach them on loopback), and the scripted LLM.
describe.skipIf(skip !== null)('a conversation on a private repository', () => {
  let repositories: GitHubRepositories;
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    repositories = await startGitHubRepositories(TOKEN, [
      {
        name: 'acme/app',
        private: true,
        branches: { main: { 'README.md': 'main\n' }, fix: { 'app.py': BROKEN, 'test_app.py': TESTS } },
      },
    ]);
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Fix add' } }],
    });
    service = await startSandboxService(repositories.serviceConfig, { network: 'host' });
    await useScriptedModel(service, llm);
    // Every test runs with the token stored, whatever ran before it.
    const stored = await repositories.storeToken(service);
    expect(stored.json).toEqual({ message: 'Git providers stored', unverified_providers: [] });
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await Promise.all([llm?.close(), repositories?.close()]);
  });

  it('refuses a repository the stored token cannot see', async () => {
    const created = await service.api('POST', '/api/conversations', { body: { repository: 'acme/private' } });
    expect(created.status).toBe(401);
    expect(created.json).toEqual({ detail: 'Unable to access repo acme/private' });
  });

  it('clones the branch, lets the agent fix the code and run the tests, and keeps the token out of everything', async () => {
    llm.push(
      {
        toolCalls: [
          {
            name: 'str_replace_editor',
            args: {
              command: 'str_replace',
              path: '/workspace/project/app/app.py',
              old_str: 'return a - b',
              new_str: 'return a + b',
              security_risk: 'MEDIUM',
            },
          },
        ],
      },
      {
        toolCalls: [
          {
            name: 'execute_bash',
            args: { command: 'python3 test_app.py && git status --short', security_risk: 'LOW' },
          },
        ],
      },
      {
        toolCalls: [
          { name: 'execute_bash', args: { command: 'echo "token: $GITHUB_TOKEN"', security_risk: 'LOW' } },
        ],
      },
      { text: 'Fixed add and the tests pass.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: {
        repository: 'acme/app',
        git_provider: 'github',
        selected_branch: 'fix',
        initial_user_msg: 'Fix add and run the tests',
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    const sse = await openSseStream(service, id);
    const live = openEventSocket(service, id);
    const info = await until(
      async () => (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
      (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
      'the agent to finish',
    );
    expect(info).toMatchObject({
      status: 'RUNNING',
      selected_repository: 'acme/app',
      selected_branch: 'fix',
      git_provider: 'github',
    });

    const events = (
      (await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }
    ).events;
    const runs = events.filter((e) => e.observation === 'run');
    expect(runs[0]?.content).toMatch(/^tests passed\n M app\.py\n/);
    // The provider token reaches git through the credential broker, not the shell environment.
    expect(runs[1]?.content).toMatch(/^token: $/m);
    expect(repositories.git.authenticatedUsers.length).toBeGreaterThan(0);

    const sandboxId = info.sandbox_id as string;
    const gitDir = await execIn(
      sandboxId,
      'cd /workspace/project/app && git config --list && cat .git/config && git remote get-url origin',
    );
    expect(gitDir.stdout).toContain(`http://${repositories.git.host}/acme/app.git`);
    expect(gitDir.stdout).not.toContain(TOKEN);
    expect(
      (await execIn(sandboxId, `grep -r '${TOKEN}' /workspace /home 2>/dev/null | wc -l`)).stdout.trim(),
    ).toBe('0');
    expect(JSON.stringify(events)).not.toContain(TOKEN);
    expect(valuesFoundInFiles(service.dataDir, [TOKEN])).toEqual([]);
    expect(llm.calls.every((call) => !call.rawBody.includes(TOKEN))).toBe(true);

    const changes = await service.api('GET', `/api/conversations/${id}/git/changes`);
    expect(changes.json).toContainEqual({ status: 'M', path: 'app/app.py' });

    // Both live clients saw every event; a reconnect after an id gets exactly the ones after it.
    const storedIds = events.map((e) => e.id);
    await until(
      async () => sse.ids(),
      (ids) => ids.length >= storedIds.length,
      'the SSE client to catch up',
    );
    expect(sse.ids()).toEqual(storedIds);
    const agentIds = events.filter((e) => e.source !== 'environment').map((e) => e.id);
    await until(
      async () => live.ids(),
      (ids) => agentIds.every((i) => ids.includes(i)),
      'the socket',
    );
    expect(new Set(live.ids()).size).toBe(live.ids().length);
    expect(live.ids().every((i) => storedIds.includes(i))).toBe(true);
    sse.close();
    live.socket.close();

    const cut = storedIds[Math.floor(storedIds.length / 2)] as number;
    const missed = storedIds.filter((i) => i > cut);
    const resumed = await openSseStream(service, id, { lastEventId: cut });
    await until(
      async () => resumed.frames,
      (f) => f.some((x) => x.startsWith('event: replay_done')),
      'replay',
    );
    expect(resumed.ids()).toEqual(missed);
    resumed.close();
    const rejoined = openEventSocket(service, id, cut);
    const missedByAgent = agentIds.filter((i) => i > cut);
    await until(
      async () => rejoined.ids(),
      (ids) => missedByAgent.every((i) => ids.includes(i)),
      'rejoin',
    );
    expect(rejoined.ids().every((i) => i > cut && storedIds.includes(i))).toBe(true);
    rejoined.socket.close();
  });

  it('starts a suggested task with its prompt as the first message on the task branch', async () => {
    llm.push({ text: 'Looking at the failing checks.' });
    const created = await service.api('POST', '/api/conversations', {
      body: {
        selected_branch: 'fix',
        suggested_task: {
          repo: 'acme/app',
          issue_number: 7,
          title: 'Fix the failing checks',
          git_provider: 'github',
          task_type: 'FAILING_CHECKS',
        },
      },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      async () => (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
      (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
      'the agent to answer',
    );
    const info = (await service.api('GET', `/api/conversations/${id}`)).json;
    expect(info).toMatchObject({ trigger: 'suggested_task', selected_repository: 'acme/app' });
    const prompt = suggestedTaskPrompt(
      { repo: 'acme/app', issue_number: 7, title: 'Fix the failing checks', task_type: 'FAILING_CHECKS' },
      'github',
    );
    expect(llm.calls.at(-1)?.rawBody).toContain(JSON.stringify(prompt).slice(1, 80));
    expect(prompt).toContain('Pull Request');
    expect(prompt).toContain('GITHUB_TOKEN');
  });
});
