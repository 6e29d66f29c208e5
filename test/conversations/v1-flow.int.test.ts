import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxProviderKind } from '../../src/service/sandbox/sandbox-models';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  dockerSkipReason,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../support/github-repositories';

const dockerSkip = await dockerSkipReason();
const processSkip = process.platform === 'linux' ? null : 'process sandboxes need Linux';
if (dockerSkip) console.warn(`Skipping the V1 flow with a Docker sandbox: ${dockerSkip}`);
if (processSkip) console.warn(`Skipping the V1 flow with a process sandbox: ${processSkip}`);

const TOKEN = 'ghp_v1-flow-token-91c3';
const BROKEN = 'def add(a, b):\n    return a - b\n';
const TESTS = 'from app import add\nassert add(2, 3) == 5, "add is broken"\nprint("tests passed")\n';
const STAGES = [
  'WORKING',
  'WAITING_FOR_SANDBOX',
  'PREPARING_REPOSITORY',
  'RUNNING_SETUP_SCRIPT',
  'SETTING_UP_GIT_HOOKS',
  'SETTING_UP_SKILLS',
  'STARTING_CONVERSATION',
  'READY',
];

interface StartTask {
  id: string;
  status: string;
  detail: string | null;
  app_conversation_id: string | null;
  sandbox_id: string | null;
}
interface V1Event {
  id: string;
  kind: string;
  source: string;
  conversation_id: string;
  v0: { message: string; content?: string; args?: { command?: string } };
}

// The V1 API end to end on a private repository served on 127.0.0.1: app-conversations start task to READY,
// then the agent's work read back through the V1 events search; once per sandbox provider.
describe.each([
  { provider: 'docker' as SandboxProviderKind, skip: dockerSkip },
  { provider: 'process' as SandboxProviderKind, skip: processSkip },
])('the V1 flow with a $provider sandbox', ({ provider, skip }) => {
  let repositories: GitHubRepositories;
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    if (skip) return;
    repositories = await startGitHubRepositories(TOKEN, [
      { name: 'acme/app', private: true, branches: { main: { 'app.py': BROKEN, 'test_app.py': TESTS } } },
    ]);
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Fix add' } }],
    });
    service = await startSandboxService(repositories.serviceConfig, { provider, network: 'host' });
    await useScriptedModel(service, llm);
    await repositories.storeToken(service);
  });

  afterAll(async () => {
    // A process sandbox leaves no containers, and Docker may be missing.
    if (provider === 'docker') await closeSandboxService(service);
    else await service?.close();
    await Promise.all([llm?.close(), repositories?.close()]);
  });

  it.skipIf(skip !== null)(
    'starts on the repository, reaches READY and shows the work in the events search',
    async () => {
      llm.push(
        {
          toolCalls: [
            {
              name: 'execute_bash',
              args: {
                command: "sed -i 's/a - b/a + b/' app.py && python3 test_app.py",
                security_risk: 'MEDIUM',
              },
            },
          ],
          usage: { input: 1000, output: 50 },
        },
        { text: 'Fixed add; the tests pass.', usage: { input: 1200, output: 30 } },
      );
      const started = await service.api('POST', '/api/v1/app-conversations', {
        body: {
          selected_repository: 'acme/app',
          git_provider: 'github',
          initial_message: { role: 'user', content: [{ type: 'text', text: 'Fix add and run the tests' }] },
        },
      });
      expect(started.status).toBe(200);
      const taskId = (started.json as StartTask).id;
      const seen: string[] = [];
      const task = await until(
        async () => {
          const [current] = (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`))
            .json as StartTask[];
          if (current && seen.at(-1) !== current.status) seen.push(current.status);
          return current;
        },
        (t) => t?.status === 'READY' || t?.status === 'ERROR',
        'the start task',
      );
      expect(task).toMatchObject({ status: 'READY', detail: null });
      expect(seen.map((s) => STAGES.indexOf(s))).toEqual(
        seen.map((s) => STAGES.indexOf(s)).sort((a, b) => a - b),
      );
      const cid = task?.app_conversation_id as string;

      const sandbox = (await service.api('GET', `/api/v1/sandboxes/${task?.sandbox_id}`)).json as {
        provider: string;
        status: string;
      };
      expect(sandbox).toMatchObject({ provider, status: 'RUNNING' });
      const conversation = await until(
        async () =>
          (await service.api('GET', `/api/v1/app-conversations/${cid}`)).json as Record<string, unknown>,
        (c) => c.execution_status === 'idle' && c.sandbox_status === 'RUNNING',
        'the agent to finish',
      );
      expect(conversation).toMatchObject({ selected_repository: 'acme/app', git_provider: 'github' });

      const search = async (query: string) =>
        (
          (await service.api('GET', `/api/v1/events/search?conversation_id__eq=${cid}&${query}`)).json as {
            items: V1Event[];
          }
        ).items;
      const actions = await search('kind__eq=ActionEvent');
      expect(actions.map((e) => e.v0.args?.command)).toContain(
        "sed -i 's/a - b/a + b/' app.py && python3 test_app.py",
      );
      const observations = await search('kind__eq=ObservationEvent');
      expect(observations.some((e) => e.v0.content?.startsWith('tests passed\n'))).toBe(true);
      const messages = await search('kind__eq=MessageEvent');
      expect(messages.map((e) => [e.source, e.v0.message])).toEqual([
        ['user', 'Fix add and run the tests'],
        ['agent', 'Fixed add; the tests pass.'],
      ]);
      const all = await search('limit=100');
      expect(all.every((e) => e.conversation_id === cid && e.id.startsWith(`${cid}:`))).toBe(true);
      expect((await service.api('GET', `/api/v1/events/count?conversation_id__eq=${cid}`)).json).toBe(
        all.length,
      );
      const changes = await service.api('GET', `/api/conversations/${cid}/git/changes`);
      expect(changes.json).toContainEqual({ status: 'M', path: 'app/app.py' });

      // The two agent calls' tokens, priced at gpt-4o's $2.50 / $10 per million (the title call is not counted).
      const metrics = {
        model_name: 'openai/gpt-4o',
        accumulated_cost: expect.closeTo((2200 * 2.5 + 80 * 10) / 1e6, 12) as number,
        max_budget_per_task: null,
        cost_known: true,
        accumulated_token_usage: expect.objectContaining({
          model: 'openai/gpt-4o',
          prompt_tokens: 2200,
          completion_tokens: 80,
        }) as unknown,
      };
      expect(conversation.metrics).toEqual(metrics);
      const info = await fetch(conversation.conversation_url as string, {
        headers: { 'X-Session-API-Key': conversation.session_api_key as string },
      });
      expect(((await info.json()) as { metrics: unknown }).metrics).toEqual(metrics);
      // Stopped, the listing reads the state the agent saved.
      expect((await service.api('POST', `/api/conversations/${cid}/stop`)).status).toBe(200);
      const listed = (await service.api('GET', '/api/v1/app-conversations/search')).json as {
        items: { id: string; execution_status: string | null; metrics: unknown }[];
      };
      expect(listed.items.find((c) => c.id === cid)).toMatchObject({ execution_status: null, metrics });
    },
  );
});
