import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventLog } from '../events/event-log';
import { SecretMasker } from '../events/secret-masker';
import { LocalSandboxFiles } from '../sandbox/files/local-files';
import { ProcessShellTransport } from '../sandbox/shell/process-transport';
import { ShellSession } from '../sandbox/shell/shell-session';
import { MemorySecretStore } from '../secrets/memory-store';
import type { SettingsUpdate } from '../../shared/api/settings';
import { openDatabase, type Db } from '../storage/database';
import { EditHistory } from './tools/str-replace-editor/edit-history';
import type { SavedAgentState } from './agent-state-store';
import { createAgent, type AgentOptions } from './create-agent';
import type { LlmClientConfig, LlmFactory, LlmResponse } from './llm/llm-types';
import { resolveModelRoute } from './llm/model-routing';
import type { LlmTiming } from './llm/retry-policy';
import { defineTool } from './tools/define-tool';
import { llmResponse } from '../../../test/support/llm-response';

/** The conversation limits the service resolved; only the model calls' timing matters here. */
const TIMING: Partial<LlmTiming> = { maxRetries: 1, idleTimeoutMs: 5_000 };
const LIMITS = { idleSeconds: 0, setupTimeoutSeconds: 600, mcpCallTimeoutSeconds: null };

const MODEL = 'openai/gpt-4o';

function reply(text: string, toolCalls: LlmResponse['toolCalls'] = []): LlmResponse {
  return llmResponse({
    text,
    toolCalls,
    usage: { prompt: 10, completion: 5 },
    cost: { usd: 0.01, known: true, source: 'price_table' },
  });
}

/** A model that answers every call with the next of `replies` (the last one again once they run out). */
function scriptedFactory(replies: LlmResponse[]) {
  const configs: LlmClientConfig[] = [];
  const systems: string[] = [];
  const factory: LlmFactory = (config) => {
    configs.push(config);
    return {
      route: resolveModelRoute(config.model, config.baseUrl),
      complete: async (request) => {
        systems.push(request.system);
        return replies.shift() ?? reply('done');
      },
    };
  };
  return { factory, configs, systems };
}

/** An MCP-like tool that changes something: it records its runs. */
function noteTool(runs: string[]) {
  return defineTool<{ text: string }>({
    name: 'notes_add',
    description: 'Adds a note.',
    parameters: z.object({ text: z.string() }),
    declaresRisk: 'optional',
    hasSideEffects: () => true,
    toAction: (args, thought) => ({ kind: 'mcp_call', name: 'notes_add', arguments: args, thought }),
    analyzed: (args) => ({ tool: 'mcp', name: 'notes_add', arguments: args }),
    execute: async ({ text }) => {
      runs.push(text);
      return { kind: 'mcp_result', name: 'notes_add', arguments: { text }, text: 'added', success: true };
    },
  });
}

describe('createAgent', () => {
  let root: string;
  let db: Db;
  let events: EventLog;
  let saved: SavedAgentState[];
  let conversations = 0;
  const secrets = new MemorySecretStore();

  beforeEach(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-create-agent-'));
    db = openDatabase(path.join(root, 'data'));
    events = new EventLog(db);
    saved = [];
    await secrets.set('llm_api_key', 'sk-live-123');
  });

  afterEach(() => {
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  function agentWith(factory: LlmFactory, settings: SettingsUpdate, runs: string[] = []) {
    const signal = new AbortController().signal;
    const options: AgentOptions = {
      conversationId: `c${++conversations}`,
      events,
      settings,
      model: MODEL,
      apiKey: 'sk-live-123',
      signal,
      workspace: {
        shell: new ShellSession(new ProcessShellTransport({ workingDir: root, env: {}, stateDir: root })),
        files: Object.assign(new LocalSandboxFiles(), { remove: async () => undefined }),
        workingDir: () => root,
      },
      secretNames: ['MY_TOKEN'],
      recall: { workspace: () => ({ content: 'context', extras: {} }), knowledge: () => null },
      mcp: { tools: [noteTool(runs)], nameMap: () => ({ notes_add: { server: 'notes', tool: 'add' } }) },
      interrupt: async () => undefined,
      onStatus: () => undefined,
      saveState: (state) => void saved.push(state),
    };
    const ctx = {
      editHistory: (conversationId: string) => new EditHistory(db, conversationId),
      dataDir: root,
      version: '9.9.9',
      masker: new SecretMasker(['sk-live-123']),
      secrets,
      limits: { ...LIMITS, llmTiming: TIMING },
    };
    return { agent: createAgent({ ...ctx, llmFactory: factory }, options), signal };
  }

  const log = () => events.after(`c${conversations}`, -1);

  it('makes the model client through the given factory, with the key, base URL, signal and timing', () => {
    const { factory, configs } = scriptedFactory([]);
    const { signal } = agentWith(factory, { llm_base_url: '' });
    expect(configs).toEqual([{ model: MODEL, apiKey: 'sk-live-123', baseUrl: null, signal, timing: TIMING }]);
    const other = scriptedFactory([]);
    agentWith(other.factory, { llm_base_url: 'http://127.0.0.1:4000/v1' });
    expect(other.configs[0]?.baseUrl).toBe('http://127.0.0.1:4000/v1');
  });

  it('offers the built-in and MCP tools and records the MCP names and version', () => {
    const { agent } = agentWith(scriptedFactory([]).factory, {});
    agent.loop.start();
    const system = log().find((e) => e.action === 'system');
    const names = (system?.args?.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual([
      'execute_bash',
      'str_replace_editor',
      'think',
      'finish',
      'task_tracker',
      'notes_add',
    ]);
    expect(system?.args).toMatchObject({
      openhands_version: '9.9.9',
      mcp_tools: { notes_add: { server: 'notes', tool: 'add' } },
    });
  });

  it('takes the limits from the settings, with the defaults when unset', () => {
    agentWith(scriptedFactory([]).factory, {}).agent.loop.start();
    expect(saved.at(-1)).toMatchObject({ iterationLimit: 500, budgetLimit: null });
    agentWith(scriptedFactory([]).factory, { max_iterations: 7, max_budget_per_task: 2 }).agent.loop.start();
    expect(saved.at(-1)).toMatchObject({ iterationLimit: 7, budgetLimit: 2 });
  });

  it('maps confirmation mode and its analyzer: the rules by default, which let a MEDIUM side effect run', async () => {
    const call = { id: 'call_1', name: 'notes_add', rawArgs: '{"text":"hi"}', args: { text: 'hi' } };
    const runs: string[] = [];
    const held = agentWith(
      scriptedFactory([reply('', [call])]).factory,
      {
        confirmation_mode: true,
        security_analyzer: 'llm',
      },
      runs,
    );
    held.agent.loop.sendMessage('add a note');
    await held.agent.loop.settled();
    expect(held.agent.loop.state).toBe('awaiting_user_confirmation');
    expect(runs).toEqual([]);

    const ruled = agentWith(
      scriptedFactory([reply('', [call]), reply('added')]).factory,
      { confirmation_mode: true },
      runs,
    );
    ruled.agent.loop.sendMessage('add a note');
    await ruled.agent.loop.settled();
    expect(runs).toEqual(['hi']);
    expect(ruled.agent.loop.state).toBe('awaiting_user_input');
  });

  it('names the conversation with the same model client, masking the message', async () => {
    const { factory, configs, systems } = scriptedFactory([reply('Title: Fix the build')]);
    const { agent } = agentWith(factory, {});
    expect(await agent.title('fix the build with sk-live-123')).toBe('Fix the build');
    expect(configs).toHaveLength(1);
    expect(systems[0]).toContain('[dockhand:title]');
  });
});
