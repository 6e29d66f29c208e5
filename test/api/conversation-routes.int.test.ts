import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

if (process.platform !== 'linux')
  console.warn('Skipping the conversation route conformance table: process sandboxes need Linux');

/** One request and what the contract says it answers. */
interface Case {
  method: string;
  path: string;
  body?: unknown;
  raw?: { body: string; type: string };
  status: number;
  /** The whole body. */
  json?: unknown;
  /** A part of the body (objects and arrays matched recursively). */
  match?: unknown;
  /** A check of the body's shape. */
  shape?: (json: unknown) => boolean;
}

const invalid = (type: string, loc: (string | number)[]) => ({
  status: 422,
  match: { detail: [{ type, loc }] },
});
const detail = (status: number, text: string) => ({ status, json: { detail: text } });
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const hasKeys =
  (...keys: string[]) =>
  (json: unknown) =>
    isObject(json) && keys.every((key) => key in json);
const isInteger = (json: unknown) => Number.isInteger(json);

/** The documented FastAPI shape of every 422 item. */
function badValidationItems(json: unknown): string[] {
  const items = isObject(json) && Array.isArray(json.detail) ? (json.detail as unknown[]) : null;
  if (!items || items.length === 0) return ['422 without a detail list'];
  return items.flatMap((item) => {
    if (!isObject(item)) return ['a detail item is no object'];
    const problems = ['type', 'loc', 'msg', 'input'].filter((k) => !(k in item)).map((k) => `no ${k}`);
    if ('url' in item) problems.push('has url');
    const loc = item.loc as unknown[];
    if (!Array.isArray(loc) || !['body', 'query', 'path', 'header'].includes(String(loc[0])))
      problems.push(`loc ${JSON.stringify(item.loc)}`);
    return problems;
  });
}

describe.skipIf(process.platform !== 'linux')(
  'conversation-scoped and V1 routes answer as documented',
  () => {
    let service: TestService;
    let llm: ScriptedLlm;
    const RUN = 'conf-run';
    const STOPPED = 'conf-stopped';

    beforeAll(async () => {
      llm = await startScriptedLlm([]);
      service = await startTestService({ sandbox: { provider: 'process', idlePauseSeconds: 0 } });
      await service.api('POST', '/api/settings', {
        body: { llm_model: 'openai/gpt-4o', llm_base_url: llm.baseUrl },
      });
      for (const id of [RUN, STOPPED]) {
        await service.api('POST', '/api/conversations', { body: { conversation_id: id } });
        await until(
          async () => (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>,
          (c) => c.agent_state === 'awaiting_user_input',
          `${id} to be ready`,
        );
      }
      await service.api('POST', `/api/conversations/${STOPPED}/stop`);
      await service.api('POST', `/api/conversations/${RUN}/events`, {
        body: { action: 'run', args: { command: 'echo hello > hello.txt' } },
      });
      await until(
        async () =>
          (
            (await service.api('GET', `/api/conversations/${RUN}/events?limit=100`)).json as {
              events: V0Event[];
            }
          ).events,
        (events) => events.some((e) => e.observation === 'run'),
        'the user command',
      );
    });

    afterAll(async () => {
      await service?.close();
      await llm?.close();
    });

    it('answers every case of the table: good input, each kind of bad input, unknown ids', async () => {
      const c = `/api/conversations/${RUN}`;
      const s = `/api/conversations/${STOPPED}`;
      const u = '/api/conversations/unknown123';
      const unknown = detail(404, 'Conversation unknown123 not found');
      const notRunning = detail(409, `Conversation ${STOPPED} is not running`);
      const sandboxDown = detail(409, `Sandbox for conversation ${STOPPED} is not running`);
      const cases: Case[] = [
        // api-contract §3 V0 conversation management
        {
          method: 'POST',
          path: '/api/conversations',
          body: { foo: 1 },
          ...invalid('extra_forbidden', ['body', 'foo']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          raw: { body: '{', type: 'application/json' },
          ...invalid('json_invalid', ['body', 1]),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: [],
          ...invalid('model_attributes_type', ['body']),
        },
        { method: 'POST', path: '/api/conversations', raw: { body: 'x', type: 'text/plain' }, status: 415 },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { conversation_id: 'bad id!' },
          ...invalid('string_pattern_mismatch', ['body', 'conversation_id']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { conversation_id: 'search' },
          ...invalid('value_error', ['body', 'conversation_id']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { repository: '../etc' },
          ...invalid('value_error', ['body', 'repository']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { git_provider: 'azure_devops' },
          ...invalid('enum', ['body', 'git_provider']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { initial_user_msg: 5 },
          ...invalid('string_type', ['body', 'initial_user_msg']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { image_urls: 'x' },
          ...invalid('list_type', ['body', 'image_urls']),
        },
        {
          method: 'POST',
          path: '/api/conversations',
          body: { conversation_id: RUN },
          ...detail(409, `Conversation ${RUN} already exists`),
        },
        { method: 'GET', path: '/api/conversations', status: 200, shape: hasKeys('results', 'next_page_id') },
        {
          method: 'GET',
          path: '/api/conversations?limit=0',
          ...invalid('greater_than_equal', ['query', 'limit']),
        },
        {
          method: 'GET',
          path: '/api/conversations?limit=101',
          ...invalid('less_than_equal', ['query', 'limit']),
        },
        {
          method: 'GET',
          path: '/api/conversations?limit=abc',
          ...invalid('int_parsing', ['query', 'limit']),
        },
        {
          method: 'GET',
          path: '/api/conversations?page_id=%21%21',
          ...invalid('value_error', ['query', 'page_id']),
        },
        {
          method: 'GET',
          path: '/api/conversations?include_sub_conversations=maybe',
          ...invalid('bool_parsing', ['query', 'include_sub_conversations']),
        },
        {
          method: 'GET',
          path: '/api/conversations?conversation_trigger=nope',
          ...invalid('enum', ['query', 'conversation_trigger']),
        },
        {
          method: 'GET',
          path: c,
          status: 200,
          shape: hasKeys('conversation_id', 'title', 'status', 'session_api_key', 'sandbox_id'),
        },
        { method: 'GET', path: u, ...unknown },
        {
          method: 'GET',
          path: '/api/conversations/bad%20id!',
          ...detail(404, 'Conversation bad id! not found'),
        },
        { method: 'PATCH', path: c, body: { title: '  Renamed  ' }, status: 200, json: true },
        { method: 'PATCH', path: c, body: {}, ...invalid('missing', ['body', 'title']) },
        { method: 'PATCH', path: c, ...invalid('missing', ['body']) },
        { method: 'PATCH', path: c, body: { title: '' }, ...invalid('string_too_short', ['body', 'title']) },
        {
          method: 'PATCH',
          path: c,
          body: { title: 'x'.repeat(201) },
          ...invalid('string_too_long', ['body', 'title']),
        },
        {
          method: 'PATCH',
          path: c,
          body: { title: 'x', colour: 'red' },
          ...invalid('extra_forbidden', ['body', 'colour']),
        },
        { method: 'PATCH', path: u, body: { title: 'x' }, ...unknown },
        { method: 'DELETE', path: u, ...unknown },
        {
          method: 'POST',
          path: `${c}/start`,
          body: {},
          status: 200,
          json: { status: 'ok', conversation_id: RUN, message: null, conversation_status: 'STARTING' },
        },
        { method: 'POST', path: `${c}/start`, ...invalid('missing', ['body']) },
        {
          method: 'POST',
          path: `${c}/start`,
          body: { providers_set: [], x: 1 },
          ...invalid('extra_forbidden', ['body', 'x']),
        },
        { method: 'POST', path: `${u}/start`, body: {}, ...unknown },
        {
          method: 'POST',
          path: `${s}/stop`,
          status: 200,
          json: {
            status: 'ok',
            conversation_id: STOPPED,
            message: 'Conversation was not running',
            conversation_status: 'STOPPED',
          },
        },
        { method: 'POST', path: `${u}/stop`, ...unknown },
        // api-contract §4 conversation-scoped routes
        {
          method: 'GET',
          path: `${c}/config`,
          status: 200,
          shape: (j) => isObject(j) && j.session_id === RUN && typeof j.runtime_id === 'string',
        },
        { method: 'GET', path: `${u}/config`, ...unknown },
        { method: 'GET', path: `${c}/vscode-url`, status: 200, json: { vscode_url: null } },
        { method: 'GET', path: `${u}/vscode-url`, ...unknown },
        {
          method: 'GET',
          path: `${c}/web-hosts`,
          status: 200,
          shape: (j) => isObject(j) && isObject(j.hosts),
        },
        { method: 'GET', path: `${u}/web-hosts`, ...unknown },
        {
          method: 'GET',
          path: `${c}/microagents`,
          status: 200,
          shape: (j) => isObject(j) && Array.isArray(j.microagents),
        },
        { method: 'GET', path: `${s}/microagents`, ...sandboxDown },
        { method: 'GET', path: `${u}/microagents`, ...unknown },
        { method: 'GET', path: `${c}/list-files`, status: 200, match: ['hello.txt'] },
        { method: 'GET', path: `${c}/list-files?path=..%2F..`, ...invalid('value_error', ['query', 'path']) },
        { method: 'GET', path: `${c}/list-files?path=%2Fetc`, ...invalid('value_error', ['query', 'path']) },
        { method: 'GET', path: `${c}/list-files?path=nowhere`, status: 404, shape: hasKeys('detail') },
        { method: 'GET', path: `${s}/list-files`, ...sandboxDown },
        { method: 'GET', path: `${u}/list-files`, ...unknown },
        { method: 'GET', path: `${c}/select-file?file=hello.txt`, status: 200, json: { code: 'hello\n' } },
        { method: 'GET', path: `${c}/select-file`, ...invalid('missing', ['query', 'file']) },
        {
          method: 'GET',
          path: `${c}/select-file?file=..%2Fsecret`,
          ...invalid('value_error', ['query', 'file']),
        },
        { method: 'GET', path: `${c}/select-file?file=missing.txt`, status: 404, shape: hasKeys('detail') },
        { method: 'GET', path: `${s}/select-file?file=hello.txt`, ...sandboxDown },
        { method: 'GET', path: `${u}/select-file?file=a`, ...unknown },
        {
          method: 'POST',
          path: `${s}/upload-files`,
          raw: { body: '--b--\r\n', type: 'multipart/form-data; boundary=b' },
          ...sandboxDown,
        },
        {
          method: 'POST',
          path: `${u}/upload-files`,
          raw: { body: '--b--\r\n', type: 'multipart/form-data; boundary=b' },
          ...unknown,
        },
        { method: 'GET', path: `${s}/zip-directory`, ...sandboxDown },
        { method: 'GET', path: `${u}/zip-directory`, ...unknown },
        { method: 'GET', path: `${c}/git/changes`, status: 200, match: [{ status: 'A', path: 'hello.txt' }] },
        { method: 'GET', path: `${s}/git/changes`, ...sandboxDown },
        { method: 'GET', path: `${u}/git/changes`, ...unknown },
        {
          method: 'GET',
          path: `${c}/git/diff?path=hello.txt`,
          status: 200,
          json: { modified: 'hello\n', original: '' },
        },
        { method: 'GET', path: `${c}/git/diff`, ...invalid('missing', ['query', 'path']) },
        { method: 'GET', path: `${u}/git/diff?path=a`, ...unknown },
        {
          method: 'GET',
          path: `${c}/trajectory`,
          status: 200,
          shape: (j) => isObject(j) && Array.isArray(j.trajectory),
        },
        { method: 'GET', path: `${u}/trajectory`, ...unknown },
        // api-contract §5 events
        { method: 'GET', path: `${c}/events`, status: 200, shape: hasKeys('events', 'has_more') },
        {
          method: 'GET',
          path: `${s}/events?reverse=true&limit=1`,
          status: 200,
          shape: hasKeys('events', 'has_more'),
        },
        { method: 'GET', path: `${c}/events?limit=0`, ...invalid('greater_than_equal', ['query', 'limit']) },
        { method: 'GET', path: `${c}/events?limit=101`, ...invalid('less_than_equal', ['query', 'limit']) },
        {
          method: 'GET',
          path: `${c}/events?start_id=-1`,
          ...invalid('greater_than_equal', ['query', 'start_id']),
        },
        { method: 'GET', path: `${c}/events?end_id=x`, ...invalid('int_parsing', ['query', 'end_id']) },
        {
          method: 'GET',
          path: `${c}/events?reverse=maybe`,
          ...invalid('bool_parsing', ['query', 'reverse']),
        },
        { method: 'GET', path: `${u}/events`, ...unknown },
        {
          method: 'POST',
          path: `${c}/events`,
          body: { action: 'browse', args: {} },
          ...invalid('enum', ['body', 'action']),
        },
        {
          method: 'POST',
          path: `${c}/events`,
          body: { action: 'message', args: {} },
          ...invalid('missing', ['body', 'args', 'content']),
        },
        {
          method: 'POST',
          path: `${c}/events`,
          body: { action: 'change_agent_state', args: { agent_state: 'user_confirmed' } },
          ...detail(409, 'Agent is not awaiting confirmation'),
        },
        {
          method: 'POST',
          path: `${c}/events`,
          body: { action: 'change_agent_state', args: { agent_state: 'flying' } },
          ...invalid('enum', ['body', 'args', 'agent_state']),
        },
        { method: 'POST', path: `${c}/events`, ...invalid('missing', ['body']) },
        {
          method: 'POST',
          path: `${s}/events`,
          body: { action: 'message', args: { content: 'hi' } },
          ...notRunning,
        },
        {
          method: 'POST',
          path: `${u}/events`,
          body: { action: 'message', args: { content: 'hi' } },
          ...unknown,
        },
        { method: 'POST', path: `${c}/message`, body: {}, ...invalid('missing', ['body', 'message']) },
        {
          method: 'POST',
          path: `${c}/message`,
          body: { message: '' },
          ...invalid('string_too_short', ['body', 'message']),
        },
        {
          method: 'POST',
          path: `${c}/message`,
          body: { message: 'x', image_urls: 'no' },
          ...invalid('list_type', ['body', 'image_urls']),
        },
        {
          method: 'POST',
          path: `${c}/message`,
          body: { message: 'x', extra: 1 },
          ...invalid('extra_forbidden', ['body', 'extra']),
        },
        { method: 'POST', path: `${s}/message`, body: { message: 'hi' }, ...notRunning },
        { method: 'POST', path: `${u}/message`, body: { message: 'hi' }, ...unknown },
        { method: 'GET', path: `${u}/events/stream`, ...unknown },
        {
          method: 'GET',
          path: `${c}/events/stream?after=-2`,
          ...invalid('greater_than_equal', ['query', 'after']),
        },
        // api-contract §10 V1 app conversations
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          body: { foo: 1 },
          ...invalid('extra_forbidden', ['body', 'foo']),
        },
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          raw: { body: '{', type: 'application/json' },
          ...invalid('json_invalid', ['body', 1]),
        },
        { method: 'POST', path: '/api/v1/app-conversations', body: { agent_type: 'plan' }, status: 422 },
        { method: 'POST', path: '/api/v1/app-conversations', body: { processors: ['x'] }, status: 422 },
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          body: { title: 'x'.repeat(201) },
          ...invalid('string_too_long', ['body', 'title']),
        },
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          body: { initial_message: { content: [] } },
          status: 422,
        },
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          body: { conversation_id: RUN },
          ...detail(409, `Conversation ${RUN} already exists`),
        },
        {
          method: 'POST',
          path: '/api/v1/app-conversations',
          body: { sandbox_id: 'sbx-unknown' },
          ...detail(404, 'Sandbox sbx-unknown not found'),
        },
        {
          method: 'POST',
          path: '/api/v1/app-conversations/stream-start',
          body: { foo: 1 },
          ...invalid('extra_forbidden', ['body', 'foo']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/search',
          status: 200,
          shape: hasKeys('items', 'next_page_id'),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/search?limit=101',
          ...invalid('less_than_equal', ['query', 'limit']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/search?sort_order=NOPE',
          ...invalid('enum', ['query', 'sort_order']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/search?created_at__gte=yesterday',
          ...invalid('datetime_parsing', ['query', 'created_at__gte']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/search?page_id=%21',
          ...invalid('value_error', ['query', 'page_id']),
        },
        { method: 'GET', path: '/api/v1/app-conversations/count', status: 200, shape: isInteger },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/count?updated_at__lt=x',
          ...invalid('datetime_parsing', ['query', 'updated_at__lt']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/start-tasks/search',
          status: 200,
          shape: hasKeys('items', 'next_page_id'),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/start-tasks/search?sort_order=TITLE',
          ...invalid('enum', ['query', 'sort_order']),
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/start-tasks/search?limit=0',
          ...invalid('greater_than_equal', ['query', 'limit']),
        },
        { method: 'GET', path: '/api/v1/app-conversations/start-tasks/count', status: 200, shape: isInteger },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/start-tasks?ids=0123456789abcdef0123456789abcdef',
          status: 200,
          json: [null],
        },
        {
          method: 'GET',
          path: '/api/v1/app-conversations/start-tasks',
          ...invalid('missing', ['query', 'ids']),
        },
        {
          method: 'GET',
          path: `/api/v1/app-conversations?ids=${RUN}&ids=nope`,
          status: 200,
          shape: (j) => Array.isArray(j) && isObject(j[0]) && j[1] === null,
        },
        { method: 'GET', path: '/api/v1/app-conversations', ...invalid('missing', ['query', 'ids']) },
        {
          method: 'GET',
          path: `/api/v1/app-conversations?${Array.from({ length: 101 }, (_, i) => `ids=x${i}`).join('&')}`,
          ...invalid('too_long', ['query', 'ids']),
        },
        {
          method: 'GET',
          path: `/api/v1/app-conversations/${RUN}`,
          status: 200,
          shape: hasKeys('id', 'sandbox_status', 'execution_status', 'conversation_url', 'session_api_key'),
        },
        { method: 'GET', path: '/api/v1/app-conversations/unknown123', ...unknown },
        // api-contract §13 V1 events
        {
          method: 'GET',
          path: `/api/v1/events/search?conversation_id__eq=${RUN}`,
          status: 200,
          shape: hasKeys('items', 'next_page_id'),
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?conversation_id__eq=unknown123',
          status: 200,
          json: { items: [], next_page_id: null },
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?kind__eq=Nope',
          ...invalid('enum', ['query', 'kind__eq']),
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?sort_order=UP',
          ...invalid('enum', ['query', 'sort_order']),
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?timestamp__gte=soon',
          ...invalid('datetime_parsing', ['query', 'timestamp__gte']),
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?limit=0',
          ...invalid('greater_than_equal', ['query', 'limit']),
        },
        {
          method: 'GET',
          path: '/api/v1/events/search?page_id=%21',
          ...invalid('value_error', ['query', 'page_id']),
        },
        {
          method: 'GET',
          path: `/api/v1/events/count?conversation_id__eq=${RUN}`,
          status: 200,
          shape: isInteger,
        },
        {
          method: 'GET',
          path: '/api/v1/events/count?kind__eq=Nope',
          ...invalid('enum', ['query', 'kind__eq']),
        },
        {
          method: 'GET',
          path: `/api/v1/events?id=${RUN}:0&id=${RUN}:99999&id=nope`,
          status: 200,
          shape: (j) => Array.isArray(j) && isObject(j[0]) && j[1] === null && j[2] === null,
        },
        { method: 'GET', path: '/api/v1/events', ...invalid('missing', ['query', 'id']) },
      ];

      const failures: string[] = [];
      for (const item of cases) {
        const response = await service.api(item.method, item.path, {
          ...(item.body !== undefined ? { body: item.body } : {}),
          ...(item.raw ? { rawBody: item.raw.body, headers: { 'Content-Type': item.raw.type } } : {}),
        });
        const name = `${item.method} ${item.path.slice(0, 120)} ${JSON.stringify(item.body ?? item.raw?.body ?? '')}`;
        const problems: string[] = [];
        if (response.status !== item.status)
          problems.push(`status ${response.status}, expected ${item.status}`);
        if (response.json === undefined || response.json === null)
          problems.push(`body ${response.text || '(empty)'}`);
        if (response.status === 422) problems.push(...badValidationItems(response.json));
        if (item.json !== undefined && JSON.stringify(response.json) !== JSON.stringify(item.json))
          problems.push(`body ${response.text}, expected ${JSON.stringify(item.json)}`);
        if (item.match !== undefined) {
          try {
            expect(response.json).toMatchObject(item.match as object);
          } catch {
            problems.push(
              `body ${response.text.slice(0, 400)}, expected to match ${JSON.stringify(item.match)}`,
            );
          }
        }
        if (item.shape && !item.shape(response.json)) problems.push(`body ${response.text.slice(0, 400)}`);
        if (problems.length > 0) failures.push(`${name}: ${problems.join('; ')}`);
      }
      expect(failures).toEqual([]);
    });

    it('deletes a conversation once: true, then the unknown-id 404', async () => {
      expect((await service.api('DELETE', `/api/conversations/${STOPPED}`)).json).toBe(true);
      expect((await service.api('DELETE', `/api/conversations/${STOPPED}`)).json).toEqual({
        detail: `Conversation ${STOPPED} not found`,
      });
    });
  },
);
