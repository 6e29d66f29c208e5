import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/ports';
import { rawRequest, startTestService, type TestResponse, type TestService } from '../support/service';

function outcome(response: TestResponse) {
  return { status: response.status, body: response.json };
}

/** Every route of the settings, secrets, options and server resources, as OpenAPI paths. */
const ROUTES: Record<string, string[]> = {
  '/alive': ['get'],
  '/health': ['get'],
  '/api/openapi.json': ['get'],
  '/server_info': ['get'],
  '/api/session-api-key/rotate': ['post'],
  '/api/settings': ['get', 'post'],
  '/api/reset-settings': ['post'],
  '/api/add-git-providers': ['post'],
  '/api/unset-provider-tokens': ['post'],
  '/api/secrets': ['get', 'post'],
  '/api/secrets/{id}': ['put', 'delete'],
  '/api/options/models': ['get'],
  '/api/options/agents': ['get'],
  '/api/options/security-analyzers': ['get'],
  '/api/options/config': ['get'],
};

type JsonSchema = Record<string, unknown>;

/** Paths inside `schema` where a sub-schema says nothing about the value (`{}`). */
function emptySchemas(schema: unknown, at: string): string[] {
  if (schema === null || typeof schema !== 'object') return [];
  const node = schema as JsonSchema;
  if (Object.keys(node).length === 0) return [at];
  const children: [string, unknown][] = [];
  for (const [key, value] of Object.entries(node.properties ?? {})) children.push([`${at}.${key}`, value]);
  if (typeof node.items === 'object') children.push([`${at}[]`, node.items]);
  if (typeof node.additionalProperties === 'object') children.push([`${at}{}`, node.additionalProperties]);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const [i, value] of ((node[key] as unknown[]) ?? []).entries()) children.push([`${at}|${i}`, value]);
  }
  return children.flatMap(([where, child]) => emptySchemas(child, where));
}

describe('server routes, options and OpenAPI', () => {
  let svc: TestService;

  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc.close();
  });

  it('answers the open probes without a key', async () => {
    expect(outcome(await svc.api('GET', '/alive', { key: null }))).toEqual({
      status: 200,
      body: { status: 'ok' },
    });
    expect(outcome(await svc.api('GET', '/health', { key: null }))).toEqual({ status: 200, body: 'OK' });
  });

  it('reports server information with Docker and keychain diagnostics', async () => {
    const response = await svc.api('GET', '/server_info');
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      uptime: expect.any(Number),
      version: '1.0.0',
      docker: {
        available: expect.any(Boolean),
        error: expect.toSatisfy((e) => e === null || typeof e === 'string'),
      },
      secret_storage: 'memory',
      keychain: { backend: 'memory', state: 'ok', message: null, fix: null },
      running_conversations: expect.any(Number),
      live_sandboxes: expect.any(Number),
      data_dir: svc.dataDir,
    });
    const { docker } = response.json as { docker: { endpoint: string } };
    expect(docker.endpoint).toMatch(/^(unix|tcp|npipe|ssh|https?):\/\/\S+$/);
  });

  it('lists the options', async () => {
    expect(outcome(await svc.api('GET', '/api/options/agents'))).toEqual({
      status: 200,
      body: ['CodeActAgent'],
    });
    expect(outcome(await svc.api('GET', '/api/options/security-analyzers'))).toEqual({
      status: 200,
      body: ['rules', 'llm'],
    });
    expect(outcome(await svc.api('GET', '/api/options/config'))).toEqual({
      status: 200,
      body: {
        APP_MODE: 'oss',
        GITHUB_CLIENT_ID: '',
        POSTHOG_CLIENT_KEY: '',
        FEATURE_FLAGS: { ENABLE_BILLING: false, HIDE_LLM_SETTINGS: false },
        DOCKHAND_VERSION: '1.0.0',
      },
    });
    const models = await svc.api('GET', '/api/options/models');
    expect(models.status).toBe(200);
    const names = models.json as string[];
    expect(names).toContain('openai/gpt-4o');
    expect(names).toEqual([...new Set(names)].sort());
  });

  it('adds the models a configured OpenAI-compatible server lists, and ignores one that is down', async () => {
    const modelServer = createServer((req, res) => {
      res.setHeader('Content-Type', 'application/json');
      if (req.url === '/v1/models') res.end(JSON.stringify({ data: [{ id: 'dockhand-local-model' }] }));
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => modelServer.listen(0, '127.0.0.1', resolve));
    const { port } = modelServer.address() as AddressInfo;
    const models = async (llmBaseUrl: string) => {
      const saved = await svc.api('POST', '/api/settings', {
        body: { llm_model: 'openai/gpt-4o', llm_base_url: llmBaseUrl },
      });
      expect(saved.status).toBe(200);
      const response = await svc.api('GET', '/api/options/models');
      expect(response.status).toBe(200);
      return response.json as string[];
    };
    try {
      expect(await models(`http://127.0.0.1:${port}/v1`)).toContain('openai/dockhand-local-model');
      const down = await models(`http://127.0.0.1:${await freePort()}/v1`);
      expect(down).toContain('openai/gpt-4o');
      expect(down).not.toContain('openai/dockhand-local-model');
    } finally {
      await new Promise<void>((resolve) => modelServer.close(() => resolve()));
    }
  });

  it('serves an OpenAPI 3.1 document without a key, listing every route with typed request schemas', async () => {
    const response = await svc.api('GET', '/api/openapi.json', { key: null });
    expect(response.status).toBe(200);
    const doc = response.json as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: unknown }> }; security?: unknown }>
      >;
      components: { securitySchemes: unknown };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes).toEqual({
      SessionApiKey: { type: 'apiKey', in: 'header', name: 'X-Session-API-Key' },
      SessionApiKeyQuery: { type: 'apiKey', in: 'query', name: 'session_api_key' },
    });
    // The query key is documented, and taken, on the event stream only.
    expect(doc.paths['/api/conversations/{id}/events/stream']?.get?.security).toEqual([
      { SessionApiKey: [] },
      { SessionApiKeyQuery: [] },
    ]);
    expect(doc.paths['/api/settings']?.get?.security).toEqual([{ SessionApiKey: [] }]);
    for (const [path, methods] of Object.entries(ROUTES)) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
    const untyped = Object.keys(ROUTES).flatMap((path) =>
      Object.entries(doc.paths[path] ?? {}).flatMap(([method, operation]) =>
        emptySchemas(operation.requestBody?.content['application/json']?.schema, `${method} ${path}`),
      ),
    );
    expect(untyped).toEqual([]);

    const settings = doc.paths['/api/settings']?.post?.requestBody?.content['application/json']?.schema as {
      properties: Record<string, unknown>;
    };
    expect(settings.properties.max_iterations).toEqual({
      type: ['integer', 'null'],
      minimum: 1,
      maximum: 10_000,
    });
    expect(settings.properties.confirmation_mode).toEqual({ type: ['boolean', 'null'] });
    expect(settings.properties.max_budget_per_task).toEqual({
      type: ['number', 'null'],
      exclusiveMinimum: 0,
    });
  });

  it('uses a fixed session key from the environment setting without persisting it', async () => {
    const fixed = 'fixed-session-key-for-tests';
    const pinned = await startTestService({ sessionApiKey: fixed });
    try {
      expect(pinned.key).toBe(fixed);
      expect((await pinned.api('GET', '/server_info')).json).toMatchObject({ secret_storage: 'environment' });
      expect(await pinned.service.context.secrets.get('session-api-key')).toBeNull();
    } finally {
      await pinned.close();
    }
    await expect(startTestService({ sessionApiKey: 'too-short' })).rejects.toThrow(
      'DOCKHAND_SESSION_API_KEY must be at least 16 characters',
    );
  });

  it('rotates the session key: the new key works at once and the old one never again', async () => {
    const rotating = await startTestService();
    try {
      const oldKey = rotating.key;
      const response = await rotating.api('POST', '/api/session-api-key/rotate');
      expect(response.status).toBe(200);
      const { session_api_key: newKey } = response.json as { session_api_key: string };
      expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(newKey).not.toBe(oldKey);
      expect(outcome(await rawRequest(rotating.port, 'GET', '/api/secrets', { key: oldKey }))).toEqual({
        status: 401,
        body: { detail: 'Unauthorized' },
      });
      expect(outcome(await rawRequest(rotating.port, 'GET', '/api/secrets', { key: newKey }))).toEqual({
        status: 200,
        body: { custom_secrets: [] },
      });
      expect(rotating.service.context.sessionKey.current).toBe(newKey);
    } finally {
      await rotating.close();
    }
  });
});
