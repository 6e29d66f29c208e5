/**
 * Records what each wire format gives for real conversations: V0 REST (`GET …/events`), SSE, socket.io,
 * V1 `/api/v1/events/search` and the agent-server SDK mapping, as JSON under `fixtures/`. The conversations
 * run on a real service with a process sandbox (Linux) and the scripted model server, and between them
 * produce every kind of event the service stores. Conversation ids, paths, timestamps and call ids are
 * replaced by stand-ins, the same way in every format, so a re-recording shows only real changes (and which
 * events fell in the same millisecond: they share a timestamp stand-in).
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs test/events/record-fixtures.ts
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { sdkEvents } from '../../src/service/agent-server/sdk-events';
import { CONDENSER_MARKER } from '../../src/service/agent/condenser/llm-summarizer';
import { TITLE_MARKER } from '../../src/service/agent/title';
import { fromV0 } from '../../src/service/events/model/v0-codec';
import type { V0Event } from '../../src/shared/api/events';
import { bundleEchoServer } from '../mcp/fixtures/bundle';
import { FIXTURES_DIR, type EventFixture } from './event-fixtures';
import { openEventSocket, openSseStream } from '../support/event-clients';
import { faults, startScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../support/scripted-llm';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

interface Session {
  service: TestService;
  llm: ScriptedLlm;
  dir: string;
}

const bash = (command: string, risk = 'LOW'): ScriptedStep => ({
  toolCalls: [{ name: 'execute_bash', args: { command, security_risk: risk } }],
});

/** The text of the last tool result the model was sent (the output of the previous command). */
function lastToolOutput(request: { body?: Record<string, unknown> | null }): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const tool = messages.findLast((m) => m.role === 'tool');
  return String(tool?.content ?? '').split('\n')[0] ?? '';
}

async function info(service: TestService, id: string): Promise<Record<string, unknown>> {
  return (await service.api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;
}

function agentState(service: TestService, id: string, state: string): Promise<unknown> {
  return until(
    () => info(service, id),
    (c) => c.agent_state === state,
    `agent state ${state}`,
  );
}

async function post(service: TestService, id: string, suffix: string, body: unknown): Promise<void> {
  const response = await service.api('POST', `/api/conversations/${id}${suffix}`, { body });
  if (response.status !== 200) throw new Error(`${suffix}: ${response.status} ${response.text}`);
}

async function create(service: TestService, body: Record<string, unknown>): Promise<string> {
  const created = await service.api('POST', '/api/conversations', { body });
  if (created.status !== 200) throw new Error(`create: ${created.status} ${created.text}`);
  return (created.json as { conversation_id: string }).conversation_id;
}

async function settings(session: Session, extra: Record<string, unknown> = {}): Promise<void> {
  const saved = await session.service.api('POST', '/api/settings', {
    body: {
      llm_model: 'openai/gpt-4o',
      llm_api_key: 'sk-test',
      llm_base_url: session.llm.baseUrl,
      sandbox_provider: 'process',
      confirmation_mode: false,
      ...extra,
    },
  });
  if (saved.status !== 200) throw new Error(`settings: ${saved.status} ${saved.text}`);
}

/** think, plan, commands, a file created, read and edited, an unknown tool, a user command, finish. */
async function tools(session: Session): Promise<string> {
  const { service, llm } = session;
  await settings(session);
  llm.push(
    { text: 'Let me think.', toolCalls: [{ name: 'think', args: { thought: 'plan the work' } }] },
    {
      toolCalls: [
        {
          name: 'task_tracker',
          args: {
            command: 'plan',
            task_list: [
              { id: '1', title: 'Write the file', status: 'in_progress' },
              { id: '2', title: 'Check it', status: 'todo', notes: 'read it back' },
            ],
          },
        },
      ],
    },
    bash('pwd'),
    (request) => ({
      toolCalls: [
        {
          name: 'str_replace_editor',
          args: {
            command: 'create',
            path: `${lastToolOutput(request)}/notes.txt`,
            file_text: 'one\ntwo\n',
            security_risk: 'LOW',
          },
        },
      ],
    }),
    { toolCalls: [{ name: 'str_replace_editor', args: { command: 'view', path: 'notes.txt' } }] },
    {
      toolCalls: [
        {
          name: 'str_replace_editor',
          args: {
            command: 'str_replace',
            path: 'notes.txt',
            old_str: 'two',
            new_str: 'three',
            security_risk: 'LOW',
          },
        },
      ],
    },
    { toolCalls: [{ name: 'no_such_tool', args: {} }] },
    { text: 'Done.', usage: { input: 120, output: 30, cacheRead: 10 } },
  );
  const id = await create(service, { initial_user_msg: 'write notes' });
  await agentState(service, id, 'awaiting_user_input');
  await post(service, id, '/events', { action: 'run', args: { command: 'echo from-user' } });
  await until(
    () => events(service, id),
    (list) => list.some((e) => e.observation === 'run' && e.source === 'user'),
    'the user command',
  );
  llm.push({ toolCalls: [{ name: 'finish', args: { message: 'All finished.' } }] });
  await post(service, id, '/message', { message: 'wrap up' });
  await agentState(service, id, 'finished');
  return id;
}

/** A command rejected with a reason, one confirmed, then a pause. */
async function confirmation(session: Session): Promise<string> {
  const { service, llm } = session;
  await settings(session, { confirmation_mode: true, security_analyzer: 'llm' });
  llm.push(bash('touch rejected.txt', 'HIGH'));
  const id = await create(service, { initial_user_msg: 'touch files' });
  await agentState(service, id, 'awaiting_user_confirmation');
  await post(service, id, '/events', {
    action: 'change_agent_state',
    args: { agent_state: 'user_rejected', reason: 'not that one' },
  });
  await agentState(service, id, 'awaiting_user_input');
  llm.push(bash('touch confirmed.txt', 'HIGH'), { text: 'Touched.' });
  await post(service, id, '/message', { message: 'try another' });
  await agentState(service, id, 'awaiting_user_confirmation');
  await post(service, id, '/events', {
    action: 'change_agent_state',
    args: { agent_state: 'user_confirmed' },
  });
  await agentState(service, id, 'awaiting_user_input');
  await post(service, id, '/events', { action: 'change_agent_state', args: { agent_state: 'paused' } });
  await agentState(service, id, 'paused');
  return id;
}

/** An MCP tool call, a condensation after a context overflow, and a model error. */
async function mcpAndErrors(session: Session): Promise<string> {
  const { service, llm, dir } = session;
  await settings(session);
  const server = path.join(dir, 'echo-server.mjs');
  writeFileSync(server, await bundleEchoServer());
  llm.push({ toolCalls: [{ name: 'echo', args: { text: 'hi' } }] }, { text: 'Echoed.' });
  const id = await create(service, {
    initial_user_msg: 'use the MCP tool',
    mcp_config: { stdio_servers: [{ name: 'echo', command: process.execPath, args: [server] }] },
  });
  await agentState(service, id, 'awaiting_user_input');
  llm.push(faults.contextExceeded(), { text: 'After condensing.' });
  await post(service, id, '/message', { message: 'go on' });
  await until(
    () => events(service, id),
    (list) => list.some((e) => e.action === 'message' && e.message === 'After condensing.'),
    'the answer after condensing',
  );
  await agentState(service, id, 'awaiting_user_input');
  llm.push(faults.unauthorized());
  await post(service, id, '/message', { message: 'fail now' });
  await agentState(service, id, 'error');
  return id;
}

async function events(service: TestService, id: string): Promise<V0Event[]> {
  const all: V0Event[] = [];
  for (;;) {
    const page = (
      await service.api('GET', `/api/conversations/${id}/events?start_id=${all.length}&limit=100`)
    ).json as { events: V0Event[]; has_more: boolean };
    all.push(...page.events);
    if (!page.has_more) return all;
  }
}

async function sse(service: TestService, id: string): Promise<V0Event[]> {
  const stream = await openSseStream(service, id);
  await until(
    async () => stream.events(),
    (frames) => frames.some((f) => f.event === 'replay_done'),
    'the SSE replay',
  );
  stream.close();
  return stream
    .events()
    .filter((f) => f.event === 'oh_event')
    .map((f) => JSON.parse(f.data) as V0Event);
}

/** What socket.io replays: everything up to the held-back last agent state, which comes after the rest. */
async function socketio(
  service: TestService,
  id: string,
  stored: V0Event[],
): Promise<Record<string, unknown>[]> {
  const lastState = stored.findLast((e) => e.observation === 'agent_state_changed')?.id;
  const client = openEventSocket(service, id);
  await until(
    async () => client.ids(),
    (ids) => ids.includes(lastState ?? -2),
    'the socket.io replay',
  );
  client.socket.close();
  return client.received.filter((e) => typeof e.id === 'number');
}

async function v1(service: TestService, id: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let pageId: string | null = null;
  do {
    const query: string = `conversation_id__eq=${id}&limit=100${pageId ? `&page_id=${pageId}` : ''}`;
    const page = (await service.api('GET', `/api/v1/events/search?${query}`)).json as {
      items: Record<string, unknown>[];
      next_page_id: string | null;
    };
    items.push(...page.items);
    pageId = page.next_page_id;
  } while (pageId);
  return items;
}

/**
 * Replaces what changes from one recording to the next (the conversation id, paths, times, ports, process
 * facts) by stand-ins numbered in order of appearance, the same in every format.
 */
function normalise(json: string, id: string, dir: string): string {
  const numbered = (pattern: RegExp, standIn: (n: number) => string) => {
    const seen = new Map<string, string>();
    json = json.replace(pattern, (match) => {
      if (!seen.has(match)) seen.set(match, standIn(seen.size));
      return seen.get(match) as string;
    });
  };
  json = json.split(id).join('conversation-0').split(dir).join('/data');
  numbered(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, (n) =>
    new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString(),
  );
  numbered(/sbx-[A-Za-z0-9]{8,}/g, (n) => `sbx-${n}`);
  const ports = new Set([...json.matchAll(/localhost:(\d{4,5})/g)].map((m) => m[1]));
  if (ports.size) numbered(new RegExp(`\\b(${[...ports].join('|')})\\b`, 'g'), (n) => String(40_000 + n));
  json = json.replace(/"pid":\d+/g, '"pid":1000');
  json = json.replace(/"(hostname|username)":"[^"]*"/g, '"$1":"<$1>"');
  return json.replace(/"date":"\d{4}-\d\d-\d\d"/g, '"date":"2026-01-01"');
}

async function record(name: string, scenario: (session: Session) => Promise<string>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'dockhand-fixtures-'));
  const llm = await startScriptedLlm([], {
    channels: [
      { marker: TITLE_MARKER, step: { text: 'Fixture title' } },
      { marker: CONDENSER_MARKER, step: { text: 'USER_CONTEXT: summary of the start' } },
    ],
  });
  const service = await startTestService({ dataDir: dir, sandbox: { idlePauseSeconds: 0 } });
  try {
    const id = await scenario({ service, llm, dir });
    const v0 = await events(service, id);
    const fixture: EventFixture = {
      conversationId: id,
      v0,
      sse: await sse(service, id),
      socketio: await socketio(service, id, v0),
      v1: await v1(service, id),
      sdk: sdkEvents(id, v0.map(fromV0)) as Record<string, unknown>[],
    };
    // Expanded first: prettier keeps an object on several lines when it was written so.
    const json = JSON.stringify(JSON.parse(normalise(JSON.stringify(fixture), id, dir)), null, 2);
    const file = path.join(FIXTURES_DIR, `${name}.json`);
    writeFileSync(file, await format(json, { ...(await resolveConfig(file)), parser: 'json' }));
    console.log(`${name}: ${v0.length} events`);
  } catch (error) {
    const list = (await service.api('GET', '/api/conversations?limit=5')).json as {
      results: { conversation_id: string }[];
    };
    for (const c of list.results) console.error(JSON.stringify(await events(service, c.conversation_id)));
    throw error;
  } finally {
    await service.close();
    await llm.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const SCENARIOS = { tools, confirmation, 'mcp-and-errors': mcpAndErrors };
const chosen = process.argv.slice(2);
for (const [name, scenario] of Object.entries(SCENARIOS)) {
  if (!chosen.length || chosen.includes(name)) await record(name, scenario);
}
