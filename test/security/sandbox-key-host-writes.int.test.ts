import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../support/until';
import { makeLocalGitRepo, type LocalGitRepo } from '../support/local-git-repo';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import {
  closeSandboxService,
  dockerSkipReason,
  startSandboxService,
  createConversation,
  useScriptedModel,
} from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the sandbox key host-write tests: ${skip}`);

/**
 * Every operation a sandbox key opens: the conversation's own events, messages and lifecycle, and its
 * workspace inside the sandbox. Nothing here writes outside the sandbox; adding a route means reviewing that.
 */
const SANDBOX_KEY_ROUTES = [
  'GET /api/conversations/{id}',
  'POST /api/conversations/{id}/start',
  'POST /api/conversations/{id}/stop',
  'GET /api/conversations/{id}/events',
  'POST /api/conversations/{id}/events',
  'POST /api/conversations/{id}/message',
  'GET /api/conversations/{id}/config',
  'GET /api/conversations/{id}/trajectory',
  'GET /api/conversations/{id}/events/stream',
  'GET /api/conversations/{id}/vscode-url',
  'GET /api/conversations/{id}/web-hosts',
  'GET /api/conversations/{id}/microagents',
  'GET /api/conversations/{id}/list-files',
  'GET /api/conversations/{id}/select-file',
  'POST /api/conversations/{id}/upload-files',
  'GET /api/conversations/{id}/zip-directory',
  'GET /api/conversations/{id}/git/changes',
  'GET /api/conversations/{id}/git/diff',
];
const OPEN = ['GET /alive', 'GET /health', 'GET /api/openapi.json'];
/** Bodies that would change the host if a handler ran; other writes get `{}`. */
const HARMFUL_BODIES: Record<string, unknown> = {
  'POST /api/conversations/{id}/local-repository/export': { mode: 'branch', branch: 'planted' },
  'PATCH /api/conversations/{id}': { title: 'Planted' },
  'POST /api/settings': { language: 'en', llm_model: 'attacker/model' },
  'POST /api/secrets': { name: 'PLANTED', value: 'attacker' },
  'POST /api/add-git-providers': { provider_tokens: {}, mcp_config: null },
};
const UNAUTHORIZED = { status: 401, body: { detail: 'Unauthorized' } };
/** After 20 refusals of one key, further ones are throttled; a valid key is never throttled, so 429 is a refusal too. */
const THROTTLED = { status: 429, body: { detail: 'Too many requests' } };

type OpenApi = { paths: Record<string, Record<string, { 'x-sandbox-key'?: boolean }>> };

describe.skipIf(skip !== null)('a sandbox key and the host', () => {
  let llm: ScriptedLlm;
  let service: TestService;
  let repo: LocalGitRepo;
  let id: string;
  let sandboxKey: string;

  /** What a refused request must leave as it was: the user's repository, settings, secrets, key, conversations. */
  async function hostState(): Promise<unknown[]> {
    const reads = ['/api/settings', '/api/secrets', '/api/conversations', '/api/v1/sandboxes/search'];
    const answers = await Promise.all(reads.map((path) => service.api('GET', path)));
    return [
      repo.fingerprint(),
      service.service.context.sessionKey.current,
      ...answers.map((answer) => [answer.status, answer.json]),
    ];
  }

  beforeAll(async () => {
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Work' } }] });
    service = await startSandboxService();
    await useScriptedModel(service, llm);
    repo = makeLocalGitRepo({ 'a.txt': 'a\n' });
    llm.push(
      { toolCalls: [{ name: 'execute_bash', args: { command: 'echo b > b.txt', security_risk: 'LOW' } }] },
      { text: 'Done.' },
    );
    const created = await createConversation(service, {
      repository: repo.root,
      initial_user_msg: 'Add b.txt',
    });
    id = created.id;
    const info = created.info;
    expect([info.status, info.agent_state]).toEqual(['RUNNING', 'awaiting_user_input']);
    sandboxKey = info.session_api_key as string;
    // The end of the turn counts the changed files in the background: settled before any before/after compare.
    await until(
      async () =>
        (await service.api('GET', `/api/conversations/${id}`)).json as { changed_files: number | null },
      (current) => current.changed_files !== null,
      'the changed files of the finished turn',
    );
  });

  afterAll(async () => {
    await closeSandboxService(service);
    await llm?.close();
  });

  it('is the running sandbox’s key, and opens its conversation', async () => {
    expect(sandboxKey.length).toBeGreaterThan(20);
    expect(sandboxKey).not.toBe(service.key);
    const own = await service.api('GET', `/api/conversations/${id}`, { key: sandboxKey });
    expect(own.json).toMatchObject({ conversation_id: id, status: 'RUNNING' });
    const changes = await service.api('GET', `/api/conversations/${id}/git/changes`, { key: sandboxKey });
    expect(changes.json).toEqual([{ status: 'A', path: 'project/b.txt' }]);
  });

  it('opens exactly the documented conversation routes', async () => {
    const doc = (await service.api('GET', '/api/openapi.json', { key: null })).json as OpenApi;
    const marked = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation['x-sandbox-key'] === true)
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(marked.sort()).toEqual([...SANDBOX_KEY_ROUTES].sort());
  });

  it('cannot export the conversation’s work to the user’s repository, as a branch or applied', async () => {
    const before = await hostState();
    const branches = repo.git('branch', '--list');
    const exportWith = (body: unknown) =>
      service.api('POST', `/api/conversations/${id}/local-repository/export`, { key: sandboxKey, body });
    for (const body of [
      { mode: 'branch', branch: 'dockhand/from-sandbox', message: 'From the sandbox' },
      { mode: 'apply' },
    ]) {
      const answer = await exportWith(body);
      // Refused before any handler: unauthorized, or throttled once the key's failures have added up.
      expect([UNAUTHORIZED, THROTTLED]).toContainEqual({ status: answer.status, body: answer.json });
    }
    expect(repo.git('branch', '--list')).toBe(branches);
    expect(repo.read('a.txt')).toBe('a\n');
    expect(await hostState()).toEqual(before);
  });

  it('is refused on every other keyed route before any handler runs, and nothing on the host changes', async () => {
    const doc = (await service.api('GET', '/api/openapi.json', { key: null })).json as OpenApi;
    const others = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods)
        .map((method) => `${method.toUpperCase()} ${path}`)
        .filter((operation) => !OPEN.includes(operation) && !SANDBOX_KEY_ROUTES.includes(operation)),
    );
    const before = await hostState();
    const reached: string[] = [];
    for (const operation of others) {
      const [method = '', template = ''] = operation.split(' ');
      const path = template.replace('{id}', id).replace(/\{\w+\}/g, 'x');
      const body = method === 'GET' ? undefined : (HARMFUL_BODIES[operation] ?? {});
      const answer = await service.api(method, path, { key: sandboxKey, ...(body ? { body } : {}) });
      const outcome = JSON.stringify({ status: answer.status, body: answer.json });
      if (outcome !== JSON.stringify(UNAUTHORIZED) && outcome !== JSON.stringify(THROTTLED)) {
        reached.push(`${operation}: ${outcome}`);
      }
    }
    expect(reached).toEqual([]);
    expect(others).toContain('POST /api/conversations/{id}/local-repository/export');
    expect(others).toContain('GET /api/conversations/{id}/local-repository');
    expect(others.length).toBeGreaterThan(50);
    expect(await hostState()).toEqual(before);
  });

  it('leaves export to the session key', async () => {
    const exported = await service.api('POST', `/api/conversations/${id}/local-repository/export`, {
      body: { mode: 'branch', branch: 'dockhand/add-b', message: 'Add b' },
    });
    expect(exported.status, JSON.stringify(exported.json)).toBe(200);
    expect(repo.git('show', 'dockhand/add-b:b.txt')).toBe('b\n');
  });
});
