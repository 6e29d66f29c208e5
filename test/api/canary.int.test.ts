import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/service/logger';
import { dockerSkipReason, instanceId, removeLabelled, startSandboxService } from '../sandbox/support';
import { valuesFoundInFiles } from '../support/data-folder';
import { type FakeGitProviders, startFakeGitProviders } from '../support/fake-git-providers';
import { clearKeychain, probeKeychain } from '../support/keychain';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import {
  rawRequest,
  startTestService,
  tempDataDir,
  type TestResponse,
  type TestService,
} from '../support/service';
import { until } from '../support/until';

const probe = await probeKeychain();
console.warn(
  probe.usable
    ? 'Canary test: secrets in the real OS keychain'
    : `Canary test: secrets in memory, because ${probe.reason}`,
);

function canary(kind: string): string {
  return `canary-${kind}-${randomBytes(8).toString('hex')}`;
}

const LLM_KEY = canary('llm');
const SEARCH_KEY = canary('search');
const GITHUB_TOKEN = canary('github');
const GITLAB_TOKEN = canary('gitlab');
const SECRET_VALUE = canary('secret');
const MCP_KEY = canary('mcp');
const SECRETS = [LLM_KEY, SEARCH_KEY, GITHUB_TOKEN, GITLAB_TOKEN, SECRET_VALUE, MCP_KEY];

const LOG_FILE = path.join('logs', 'dockhand.log');

describe('secrets never reach the data folder or a response body', () => {
  let providers: FakeGitProviders;
  let svc: TestService;
  let dataDir: string;
  const responses: { request: string; response: TestResponse }[] = [];
  const sessionKeys: string[] = [];

  /** A keyed request with the current session key; every answer is kept for the final check. */
  async function call(method: string, urlPath: string, body?: unknown, headers?: Record<string, string>) {
    const key = sessionKeys.at(-1) ?? null;
    const response = await rawRequest(svc.port, method, urlPath, {
      key,
      headers,
      ...(body === undefined ? {} : { body }),
    });
    responses.push({ request: `${method} ${urlPath}`, response });
    return response;
  }

  beforeAll(async () => {
    if (probe.usable) await clearKeychain();
    providers = await startFakeGitProviders({ github: GITHUB_TOKEN, gitlab: GITLAB_TOKEN });
    dataDir = tempDataDir();
    svc = await startTestService({
      dataDir,
      logger: createLogger(dataDir, 'debug'),
      providerApiBase: providers.apiBase,
      realKeychain: probe.usable,
    });
    sessionKeys.push(svc.key);
  });
  afterAll(async () => {
    await providers.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (probe.usable) await clearKeychain();
  });

  it('stores the secrets, exercises every route, and finds none of them anywhere', async () => {
    const expectStatus = async (status: number, pending: Promise<TestResponse>) => {
      const response = await pending;
      expect(response.status, response.text).toBe(status);
    };
    const mcpServer = { url: 'http://127.0.0.1:9/sse', api_key: MCP_KEY };

    await expectStatus(404, call('GET', '/api/settings'));
    await expectStatus(
      200,
      call('POST', '/api/settings', {
        llm_model: 'openai/gpt-4o',
        llm_api_key: LLM_KEY,
        search_api_key: SEARCH_KEY,
        mcp_config: { sse_servers: [mcpServer] },
      }),
    );
    await expectStatus(
      200,
      call('POST', '/api/add-git-providers', {
        provider_tokens: { github: { token: GITHUB_TOKEN }, gitlab: { token: GITLAB_TOKEN } },
      }),
    );
    await expectStatus(
      201,
      call('POST', '/api/secrets', { name: 'CANARY', value: SECRET_VALUE, description: 'x' }),
    );

    // Invalid requests that carry secrets in valid fields must not echo them.
    await expectStatus(422, call('POST', '/api/settings', { llm_api_key: LLM_KEY, max_iterations: 'abc' }));
    await expectStatus(
      422,
      call('POST', '/api/secrets', { name: 'OTHER', value: SECRET_VALUE, colour: 'red' }),
    );
    await expectStatus(409, call('POST', '/api/secrets', { name: 'CANARY', value: SECRET_VALUE }));
    await expectStatus(
      401,
      call('POST', '/api/add-git-providers', {
        provider_tokens: { github: { token: `${GITHUB_TOKEN}-bad` } },
      }),
    );
    await expectStatus(
      422,
      call('POST', '/api/add-git-providers', {
        provider_tokens: { github: { token: GITHUB_TOKEN }, azure_devops: { token: GITHUB_TOKEN } },
      }),
    );
    await expectStatus(
      413,
      call('POST', '/api/settings', { llm_api_key: LLM_KEY, language: 'x'.repeat(11 * 1024 * 1024) }),
    );

    const settings = await call('GET', '/api/settings');
    expect(settings.json).toMatchObject({
      llm_api_key_set: true,
      search_api_key_set: true,
      provider_tokens_set: { github: null, gitlab: null },
      mcp_config: { sse_servers: [{ url: mcpServer.url, api_key: '**********' }] },
    });
    await expectStatus(200, call('POST', '/api/settings', settings.json));
    await expectStatus(200, call('GET', '/api/secrets'));
    await expectStatus(
      200,
      call('PUT', '/api/secrets/CANARY', { name: 'CANARY_RENAMED', description: null }),
    );
    for (const route of ['models', 'agents', 'security-analyzers', 'config']) {
      await expectStatus(200, call('GET', `/api/options/${route}`));
    }
    await expectStatus(200, call('GET', '/server_info'));
    await expectStatus(200, call('GET', '/alive'));
    await expectStatus(200, call('GET', '/health'));
    await expectStatus(200, call('GET', '/api/openapi.json'));
    await expectStatus(410, call('POST', '/api/reset-settings'));
    await expectStatus(404, call('GET', '/api/nope'));
    await expectStatus(405, call('DELETE', '/api/settings'));
    await expectStatus(200, call('GET', `/api/secrets?session_api_key=${sessionKeys[0]}`));

    const rotated = await call('POST', '/api/session-api-key/rotate');
    expect(rotated.status).toBe(200);
    sessionKeys.push((rotated.json as { session_api_key: string }).session_api_key);
    await expectStatus(401, rawRequest(svc.port, 'GET', '/api/settings', { key: sessionKeys[0] }));
    await expectStatus(200, call('GET', '/api/settings'));

    const values = await svc.service.context.secrets.values();
    expect(values).toEqual(
      expect.arrayContaining([LLM_KEY, SEARCH_KEY, GITHUB_TOKEN, GITLAB_TOKEN, SECRET_VALUE, MCP_KEY]),
    );

    const echoed = responses.flatMap(({ request, response }) =>
      SECRETS.filter((secret) => response.text.includes(secret)).map((secret) => `${request}: ${secret}`),
    );
    expect(echoed).toEqual([]);

    // Every request line is logged; wait until the last one is on disk, then look at every file.
    const marker = `/alive?flush-marker=${randomBytes(4).toString('hex')}`;
    await expectStatus(200, call('GET', marker));
    const logFile = path.join(dataDir, LOG_FILE);
    for (
      let attempt = 0;
      attempt < 100 && !(existsSync(logFile) && readFileSync(logFile, 'utf8').includes(marker));
      attempt += 1
    ) {
      await sleep(50);
    }
    const log = readFileSync(logFile, 'utf8');
    expect(log).toContain(marker);
    expect(log).toContain('"url":"/api/secrets?session_api_key=<redacted>"');
    expect(valuesFoundInFiles(dataDir, [...SECRETS, ...sessionKeys])).toEqual([]);

    await svc.close({ keepData: true });
    expect(valuesFoundInFiles(dataDir, [...SECRETS, ...sessionKeys])).toEqual([]);
  });
});

const dockerSkip = await dockerSkipReason();
if (dockerSkip) console.warn(`Skipping the conversation canary test: ${dockerSkip}`);

describe.skipIf(dockerSkip !== null)('secrets echoed in a conversation stay hidden', () => {
  let providers: FakeGitProviders;
  let llm: ScriptedLlm;
  let svc: TestService;
  let dataDir: string;
  let label: string | null = null;
  let closed = false;

  beforeAll(async () => {
    providers = await startFakeGitProviders({ github: GITHUB_TOKEN });
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }] });
    dataDir = tempDataDir();
    svc = await startSandboxService({
      dataDir,
      logger: createLogger(dataDir, 'debug'),
      providerApiBase: providers.apiBase,
    });
    label = `dev.dockhand.instance=${instanceId(svc)}`;
  });
  afterAll(async () => {
    if (!closed) await svc?.close({ keepData: true });
    if (label) await removeLabelled(label);
    await llm?.close();
    await providers?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('masks the LLM key, the provider token and a custom secret in events, trajectory, logs and files', async () => {
    await svc.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_api_key: LLM_KEY, llm_base_url: llm.baseUrl },
    });
    await svc.api('POST', '/api/add-git-providers', {
      body: { provider_tokens: { github: { token: GITHUB_TOKEN } } },
    });
    await svc.api('POST', '/api/secrets', { body: { name: 'CANARY', value: SECRET_VALUE } });
    const echo = `echo "$CANARY" "$GITHUB_TOKEN" ${LLM_KEY}; exit 3`;
    llm.push(
      { toolCalls: [{ name: 'execute_bash', args: { command: echo, security_risk: 'LOW' } }] },
      { text: `Done: ${SECRET_VALUE} ${GITHUB_TOKEN} ${LLM_KEY}` },
    );
    const created = await svc.api('POST', '/api/conversations', {
      body: { initial_user_msg: `print ${SECRET_VALUE}` },
    });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      async () => (await svc.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
      (c) => c.agent_state === 'awaiting_user_input',
      'the agent to echo the secrets',
    );
    const run = await svc.api('POST', `/api/conversations/${id}/message`, { body: { message: 12 } });
    expect(run.status).toBe(422);

    const answers = [
      await svc.api('GET', `/api/conversations/${id}/events?limit=100`),
      await svc.api('GET', `/api/conversations/${id}/trajectory`),
      await svc.api('GET', `/api/conversations/${id}`),
      await svc.api('GET', `/api/v1/events/search?conversation_id__eq=${id}&limit=100`),
      run,
    ];
    const texts = answers.map((a) => a.text).join('\n');
    expect(texts).toContain('<secret_hidden>');
    expect(SECRETS.filter((secret) => texts.includes(secret))).toEqual([]);
    // What the model was sent back is masked too.
    const sentToLlm = JSON.stringify(llm.requests.map((r) => r.body));
    expect([SECRET_VALUE, GITHUB_TOKEN].filter((secret) => sentToLlm.includes(secret))).toEqual([]);

    closed = true;
    await svc.close({ keepData: true });
    expect(valuesFoundInFiles(dataDir, [...SECRETS, svc.key])).toEqual([]);
  });
});
