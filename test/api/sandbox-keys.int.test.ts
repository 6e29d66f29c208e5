import { request as httpRequest, type IncomingMessage } from 'node:http';
import { io as ioClient } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxKey } from '../../src/service/secrets/sandbox-key';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

if (process.platform !== 'linux')
  console.warn('Skipping the sandbox key tests: process sandboxes need Linux');

type Info = Record<string, unknown> & { sandbox_id: string | null; session_api_key: string | null };

/** Status code of an SSE request, the stream closed at once. */
function streamStatus(port: number, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: '127.0.0.1', port, path })
      .on('response', (response: IncomingMessage) => {
        resolve(response.statusCode ?? 0);
        response.destroy();
      })
      .on('error', reject)
      .end();
  });
}

/** `connected`, or the socket.io refusal message. */
function socketOutcome(url: string, conversationId: string, key: string): Promise<string> {
  const socket = ioClient(url, {
    query: { conversation_id: conversationId, session_api_key: key },
    transports: ['websocket'],
    reconnection: false,
  });
  return new Promise<string>((resolve) => {
    socket.on('connect', () => resolve('connected'));
    socket.on('connect_error', (error) => resolve(error.message));
  }).finally(() => socket.close());
}

// Process sandboxes start in a moment and need no Docker; the key rules do not depend on the provider.
describe.skipIf(process.platform !== 'linux')('sandbox keys', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  const createConversation = async (svc: TestService, body: Record<string, unknown> = {}) => {
    const created = await svc.api('POST', '/api/conversations', { body });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    return until(
      async () => (await svc.api('GET', `/api/conversations/${id}`)).json as Info,
      (c) => c.status === 'RUNNING' && c.agent_state === 'awaiting_user_input',
      `conversation ${id} to be ready`,
    );
  };

  beforeAll(async () => {
    llm = await startScriptedLlm([]);
    service = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    await service.api('POST', '/api/settings', {
      body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
    });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  it('reaches its own conversations, their sub-routes and streams, and nothing else', async () => {
    const own = await createConversation(service, { conversation_id: 'keyed-own' });
    const other = await createConversation(service, { conversation_id: 'keyed-other' });
    const sandboxId = own.sandbox_id as string;
    expect(other.sandbox_id).not.toBe(sandboxId);
    const key = sandboxKey(service.key, sandboxId);
    expect(own.session_api_key).toBe(key);
    const withKey = (method: string, path: string, body?: unknown) =>
      service.api(method, path, { key, ...(body === undefined ? {} : { body }) });

    expect((await withKey('GET', '/api/conversations/keyed-own')).json).toMatchObject({
      conversation_id: 'keyed-own',
    });
    expect((await withKey('GET', '/api/conversations/keyed-own/events?limit=5')).status).toBe(200);
    expect((await withKey('GET', '/api/conversations/keyed-own/config')).json).toEqual({
      runtime_id: sandboxId,
      session_id: 'keyed-own',
    });
    llm.push({ text: 'Keyed reply.' });
    expect((await withKey('POST', '/api/conversations/keyed-own/message', { message: 'hi' })).json).toEqual({
      success: true,
    });
    expect((await withKey('GET', '/api/conversations/keyed-own/nope')).status).toBe(401);

    const refused: [string, string, unknown?][] = [
      ['PATCH', '/api/conversations/keyed-own', { title: 'Renamed' }],
      ['DELETE', '/api/conversations/keyed-own'],
      ['GET', '/api/conversations/keyed-other'],
      ['GET', '/api/conversations/keyed-other/events'],
      ['POST', '/api/conversations/keyed-other/message', { message: 'hi' }],
      ['GET', '/api/conversations/unknown-conversation'],
      ['GET', '/api/conversations'],
      ['POST', '/api/conversations', {}],
      ['GET', '/api/settings'],
      ['POST', '/api/session-api-key/rotate'],
      ['GET', `/api/v1/sandboxes/${sandboxId}`],
      ['GET', '/api/v1/app-conversations?ids=keyed-own'],
      ['GET', '/api/v1/events/search?conversation_id__eq=keyed-own'],
      ['GET', '/server_info'],
    ];
    for (const [method, path, body] of refused) {
      const response = await withKey(method, path, body);
      expect({ method, path, status: response.status, body: response.json }).toEqual({
        method,
        path,
        status: 401,
        body: { detail: 'Unauthorized' },
      });
    }

    const stream = (id: string) => `/api/conversations/${id}/events/stream?session_api_key=${key}`;
    expect(await streamStatus(service.port, stream('keyed-own'))).toBe(200);
    expect(await streamStatus(service.port, stream('keyed-other'))).toBe(401);
    expect(await socketOutcome(service.url, 'keyed-own', key)).toBe('connected');
    expect(await socketOutcome(service.url, 'keyed-other', key)).toBe('invalid_session_api_key');
  });

  it('reaches every conversation sharing the sandbox', async () => {
    const parent = await createConversation(service, { conversation_id: 'keyed-shared-a' });
    const sandboxId = parent.sandbox_id as string;
    const started = await service.api('POST', '/api/v1/app-conversations', {
      body: { conversation_id: 'keyed-shared-b', sandbox_id: sandboxId },
    });
    expect(started.status).toBe(200);
    const taskId = (started.json as { id: string }).id;
    await until(
      async () =>
        (
          (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${taskId}`)).json as {
            status: string;
          }[]
        )[0],
      (task) => task?.status === 'READY' || task?.status === 'ERROR',
      'the start task',
    );
    const key = sandboxKey(service.key, sandboxId);
    const shared = await service.api('GET', '/api/conversations/keyed-shared-b', { key });
    expect(shared.json).toMatchObject({ sandbox_id: sandboxId, session_api_key: key });
  });

  it('is reported, and opens its conversations, only while the sandbox is RUNNING', async () => {
    const info = await createConversation(service, { conversation_id: 'keyed-paused' });
    const sandboxId = info.sandbox_id as string;
    const key = info.session_api_key as string;
    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/pause`)).json).toEqual({
      success: true,
    });
    const paused = (await service.api('GET', '/api/conversations/keyed-paused')).json as Info;
    expect(paused.session_api_key).toBeNull();
    const sandbox = (await service.api('GET', `/api/v1/sandboxes/${sandboxId}`)).json as Info;
    expect(sandbox).toMatchObject({ status: 'PAUSED', session_api_key: null });
    expect((await service.api('GET', '/api/conversations/keyed-paused', { key })).status).toBe(401);

    expect((await service.api('POST', `/api/v1/sandboxes/${sandboxId}/resume`)).json).toEqual({
      success: true,
    });
    expect((await service.api('GET', '/api/conversations/keyed-paused', { key })).status).toBe(200);
  });

  // On a service of its own: a rotated session key would shut the other tests (in any order) out.
  it('rotates with the session key', async () => {
    const own = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
    try {
      await own.api('POST', '/api/settings', {
        body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
      });
      const info = await createConversation(own, { conversation_id: 'keyed-rotation' });
      const old = info.session_api_key as string;
      const rotated = await own.api('POST', '/api/session-api-key/rotate');
      const next = (rotated.json as { session_api_key: string }).session_api_key;
      expect((await own.api('GET', '/api/conversations/keyed-rotation', { key: old })).status).toBe(401);
      const fresh = (await own.api('GET', '/api/conversations/keyed-rotation', { key: next })).json as Info;
      expect(fresh.session_api_key).toBe(sandboxKey(next, info.sandbox_id as string));
      expect(fresh.session_api_key).not.toBe(old);
      const withNew = await own.api('GET', '/api/conversations/keyed-rotation', {
        key: fresh.session_api_key,
      });
      expect(withNew.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

describe.skipIf(process.platform !== 'linux')('the rate bucket of a sandbox key', () => {
  let service: TestService;
  let llm: ScriptedLlm;

  beforeAll(async () => {
    llm = await startScriptedLlm([]);
    // Burst 1, one request every 2 s: the session key's bucket runs dry after one request.
    service = await startTestService({
      rateLimitPerSecond: 0.5,
      sandbox: { provider: 'process', idlePauseSeconds: 0 },
    });
    await service.service.context.settings.save({ llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl });
  });

  afterAll(async () => {
    await service?.close();
    await llm?.close();
  });

  it('is its own: an exhausted session key leaves the sandbox key its requests', async () => {
    const created = await service.api('POST', '/api/conversations', { body: { conversation_id: 'bucket' } });
    expect(created.status).toBe(200);
    const sandboxes = service.service.context.sandboxes;
    const running = async () => sandboxes.search({ limit: 1, status: 'RUNNING' }).items[0];
    const sandbox = await until(running, (s) => s !== undefined, 'the sandbox');
    const key = sandboxKey(service.key, sandbox?.id as string);

    let session = await service.api('GET', '/api/conversations/bucket');
    if (session.status !== 429) session = await service.api('GET', '/api/conversations/bucket');
    expect(session.status).toBe(429);
    expect((await service.api('GET', '/api/conversations/bucket', { key })).status).toBe(200);
    expect((await service.api('GET', '/api/conversations/bucket', { key })).status).toBe(429);
    expect((await service.api('GET', '/api/conversations/bucket')).status).toBe(429);
  });
});
