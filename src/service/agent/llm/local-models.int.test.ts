import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { V0Event } from '../../../shared/api/events';
import type { SettingsUpdate } from '../../../shared/api/settings';
import { EventLog } from '../../events/event-log';
import { openDatabase, type Db } from '../../storage/database';
import { CONTEXT_WARNING_OBSERVATION } from './context-warning-event';
import { WORKING_BUDGET_TOKENS } from './context-plan';
import { createLlmClient } from './llm-client';
import { localModelClient } from './local-model-client';
import { ModelProbes } from './model-probes';
import { resolveModelRoute } from './model-routing';
import { probeModelServer } from './model-server-probe';
import {
  OLLAMA_DEFAULT_CONTEXT,
  startLocalModelServer,
  type FakeLocalServer,
  type FakeModel,
  type LocalServerKind,
} from '../../../../test/support/local-model-servers';
import { processAgent } from '../../../../test/support/process-agent';

const TIMING = { maxRetries: 0, idleTimeoutMs: 5_000 };
const CODER: FakeModel = { name: 'qwen-coder', trainedContext: 131_072, tools: 'native' };
const ECHO = {
  toolCalls: [{ name: 'execute_bash', args: { command: 'echo reached-the-tool', security_risk: 'LOW' } }],
};

/** The model string and base URL a user would configure for each server. */
function modelFor(server: FakeLocalServer, name: string): { model: string; baseUrl: string } {
  const prefix = { ollama: 'ollama', lm_studio: 'lm_studio', llama_cpp: 'openai', vllm: 'openai' }[
    server.kind
  ];
  return { model: `${prefix}/${name}`, baseUrl: server.kind === 'ollama' ? server.origin : server.baseUrl };
}

describe('local model servers', () => {
  let root: string;
  let db: Db;
  let events: EventLog;
  let servers: FakeLocalServer[];
  let conversations = 0;

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-local-models-'));
    db = openDatabase(path.join(root, 'data'));
    events = new EventLog(db);
    servers = [];
  });

  afterEach(async () => {
    await Promise.all(servers.map((s) => s.close()));
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function serve(
    kind: LocalServerKind,
    options: Partial<Parameters<typeof startLocalModelServer>[0]> = {},
  ) {
    const server = await startLocalModelServer({ kind, models: [CODER], ...options });
    servers.push(server);
    return server;
  }

  /** A conversation's agent on the server, as the service builds it; runs one message to the end. */
  async function converse(
    server: FakeLocalServer,
    name = CODER.name,
    probes = new ModelProbes(),
    settings: SettingsUpdate = {},
  ) {
    const id = `c${++conversations}`;
    const { model, baseUrl } = modelFor(server, name);
    const statuses: string[] = [];
    const agent = processAgent({
      db,
      events,
      root,
      conversationId: id,
      model,
      settings: { llm_base_url: baseUrl, ...settings },
      llmTiming: TIMING,
      probes,
      onStatus: (update) => void statuses.push(update.message),
    });
    agent.loop.sendMessage('Say something in the shell.');
    await agent.loop.settled();
    return { loop: agent.loop, log: events.after(id, -1), statuses };
  }

  const ranCommand = (log: V0Event[]) =>
    log.some((e) => e.observation === 'run' && String(e.content).includes('reached-the-tool'));
  const warnings = (log: V0Event[]) => log.filter((e) => e.observation === CONTEXT_WARNING_OBSERVATION);

  describe('probe', () => {
    it('reads Ollama’s /api/show and /api/ps', async () => {
      const server = await serve('ollama', { models: [{ ...CODER, vision: true }] });
      const route = resolveModelRoute('ollama/qwen-coder', server.origin);
      expect(await probeModelServer(route)).toMatchObject({
        server: 'ollama',
        trainedContext: 131_072,
        loadedContext: null,
        tools: true,
        vision: true,
        resizable: true,
      });
      // Loaded through the OpenAI-compatible layer, the model runs with Ollama's default context.
      await createLlmClient({ model: route.model, baseUrl: server.origin }).complete({
        system: 's',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(await probeModelServer(route)).toMatchObject({
        loadedContext: OLLAMA_DEFAULT_CONTEXT,
        vramBytes: 6e9,
      });
    });

    it('reads LM Studio’s /api/v1/models', async () => {
      const server = await serve('lm_studio', { models: [{ ...CODER, tools: 'text', loadedContext: 4096 }] });
      expect(await probeModelServer(resolveModelRoute('lm_studio/qwen-coder', server.baseUrl))).toMatchObject(
        {
          server: 'lm_studio',
          trainedContext: 131_072,
          loadedContext: 4096,
          tools: false,
          resizable: true,
        },
      );
    });

    it('reads llama.cpp’s /props and vLLM’s max_model_len', async () => {
      const llama = await serve('llama_cpp', { serverContext: 8192 });
      expect(await probeModelServer(resolveModelRoute('openai/qwen-coder', llama.baseUrl))).toMatchObject({
        server: 'llama_cpp',
        trainedContext: 131_072,
        loadedContext: 8192,
        resizable: false,
      });
      const vllm = await serve('vllm', { serverContext: 32_768 });
      expect(await probeModelServer(resolveModelRoute('openai/qwen-coder', vllm.baseUrl))).toMatchObject({
        server: 'vllm',
        trainedContext: 32_768,
        loadedContext: 32_768,
      });
    });

    it('falls back to the model table when no server answers', async () => {
      const facts = await probeModelServer(resolveModelRoute('ollama/qwen2.5-coder', 'http://127.0.0.1:9'));
      expect(facts).toMatchObject({ server: null, source: 'table', trainedContext: 32_768 });
    });
  });

  describe('a conversation reaches a tool call', () => {
    it('on Ollama, through its native chat with num_ctx sized for the agent', async () => {
      const server = await serve('ollama', { turns: [ECHO] });
      const { log, loop, statuses } = await converse(server);
      expect(ranCommand(log)).toBe(true);
      expect(loop.state).toBe('awaiting_user_input');
      const turns = server.turns;
      expect(turns.every((t) => t.path === '/api/chat')).toBe(true);
      const numCtx = (turns[0]?.body?.options as { num_ctx: number }).num_ctx;
      expect(numCtx).toBeGreaterThan(WORKING_BUDGET_TOKENS);
      expect(turns.every((t) => !t.truncated)).toBe(true);
      // The second turn carries the call and its result in Ollama's chat format.
      const messages = turns[1]?.body?.messages as {
        role: string;
        content: string;
        tool_calls?: unknown;
        tool_name?: string;
      }[];
      expect(messages.find((m) => m.role === 'assistant' && m.tool_calls)?.tool_calls).toEqual([
        { function: { name: 'execute_bash', arguments: ECHO.toolCalls[0]?.args } },
      ]);
      const result = messages.find((m) => m.role === 'tool');
      expect(result).toMatchObject({ tool_name: 'execute_bash' });
      expect(result?.content).toContain('reached-the-tool');
      expect(
        statuses.some((s) => s.includes(`Ollama is asked for ${numCtx.toLocaleString('en-US')} tokens`)),
      ).toBe(true);
    });

    it('on LM Studio, loading the model again with a larger context after saying so', async () => {
      const server = await serve('lm_studio', { models: [{ ...CODER, loadedContext: 4096 }], turns: [ECHO] });
      const { log, statuses } = await converse(server);
      expect(ranCommand(log)).toBe(true);
      expect(server.loads).toHaveLength(1);
      expect(server.loads[0]?.contextLength).toBeGreaterThan(WORKING_BUDGET_TOKENS);
      expect(
        statuses.some(
          (s) => s.includes('Loading qwen-coder in LM Studio') && s.includes('loaded with 4,096'),
        ),
      ).toBe(true);
    });

    it('on llama.cpp’s server and on vLLM, in the context they were started with', async () => {
      for (const kind of ['llama_cpp', 'vllm'] as const) {
        const server = await serve(kind, { serverContext: 65_536, turns: [ECHO] });
        const { log } = await converse(server);
        expect(ranCommand(log), kind).toBe(true);
        expect(warnings(log), kind).toEqual([]);
      }
    });

    it('in the text format for a model without native tool calls; a model with neither is refused', async () => {
      const server = await serve('ollama', {
        models: [
          { ...CODER, tools: 'text' },
          { name: 'chatty', trainedContext: 131_072, tools: 'none' },
        ],
        turns: [ECHO],
      });
      const probes = new ModelProbes();
      const text = await converse(server, CODER.name, probes);
      expect(ranCommand(text.log)).toBe(true);
      expect(probes.toolMode(resolveModelRoute('ollama/qwen-coder', server.origin))).toBe('text');
      expect(server.turns[0]?.body?.tools).toBeUndefined();

      const refused = await converse(server, 'chatty', probes);
      expect(refused.loop.state).toBe('error');
      expect(JSON.stringify(refused.log)).toContain('cannot do agent work');
    });
  });

  describe('context too small', () => {
    it('says so with the numbers when the server cannot give what a turn needs', async () => {
      const server = await serve('llama_cpp', { serverContext: 8192, turns: [{ text: 'hello' }] });
      const { log } = await converse(server);
      const [warning] = warnings(log);
      expect(warning?.message).toMatch(
        /runs the model with 8,192 tokens of context, less than the [\d,]+ tokens a turn needs/,
      );
      expect(warning?.message).toContain('--ctx-size');
      expect(warning?.extras).toMatchObject({ reason: 'too_small', context_window: 8192, hidden: true });
      expect(warning?.extras?.needed_tokens).toBeGreaterThan(8192);
    });

    it('catches a prompt the server cut silently: a warning event, then the condenser before the next call', async () => {
      // The model was trained for little more than what a turn needs: a long conversation overflows it.
      const server = await serve('ollama', { models: [{ ...CODER, trainedContext: 12_288 }] });
      const route = resolveModelRoute('ollama/qwen-coder', server.origin);
      const cut: string[] = [];
      const probes = new ModelProbes();
      const client = localModelClient(
        { model: route.model, baseUrl: server.origin, timing: TIMING },
        createLlmClient,
        probes,
        { notice: () => undefined, truncated: (n) => void cut.push(n.message) },
      );
      const long = 'x'.repeat(4 * 20_000);
      const tools = [
        { name: 'execute_bash', description: 'Runs a command.', parameters: { type: 'object' as const } },
      ];
      const error = await client
        .complete({ system: 'You are an agent.', messages: [{ role: 'user', content: long }], tools })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'context_overflow' });
      expect(cut[0]).toMatch(
        /cut the start of the conversation: it read [\d,]+ of about [\d,]+ prompt tokens \(context 12,288\)/,
      );
      expect(server.turns.at(-1)).toMatchObject({ truncated: true, context: 12_288 });
      // What the server runs may have changed since it was probed: the next conversation reads it again.
      const shows = () => server.requests.filter((r) => r.path === '/api/show').length;
      const before = shows();
      await probes.serverFacts(route);
      expect(shows()).toBe(before + 1);
    });

    it('in a conversation: the warning event, then a condensation before the next call', async () => {
      const big = { command: "head -c 40000 /dev/zero | tr '\\0' x", security_risk: 'LOW' };
      const output = { toolCalls: [{ name: 'execute_bash', args: big }] };
      const server = await serve('ollama', {
        models: [{ ...CODER, trainedContext: 12_288 }],
        turns: [output, output, { text: 'done' }],
      });
      // Without the summarizer only a request condenses: the cut prompt must be what asks for it.
      const { log } = await converse(server, CODER.name, new ModelProbes(), {
        enable_default_condenser: false,
      });
      const warning = log.findIndex(
        (e) => e.observation === CONTEXT_WARNING_OBSERVATION && e.extras?.reason === 'truncated',
      );
      expect(warning).toBeGreaterThan(-1);
      expect(log[warning]?.extras).toMatchObject({ context_window: 12_288, hidden: true });
      const condensation = log.findIndex((e) => e.action === 'condensation');
      expect(condensation).toBeGreaterThan(warning);
      const cut = server.turns.findIndex((t) => t.truncated);
      expect(server.turns.slice(cut + 1).every((t) => !t.truncated)).toBe(true);
    });
  });
});
