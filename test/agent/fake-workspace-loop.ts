import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { V0Event } from '../../src/shared/api/events';
import { AgentLoop, type StatusUpdate } from '../../src/service/agent/agent-loop';
import type { SavedAgentState } from '../../src/service/agent/agent-state-store';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { defineTool } from '../../src/service/agent/tools/define-tool';
import { finishTool } from '../../src/service/agent/tools/finish';
import { ToolRegistry } from '../../src/service/agent/tools/registry';
import { thinkTool } from '../../src/service/agent/tools/think';
import type { ToolContext, ToolObservation } from '../../src/service/agent/tools/tool';
import { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { openDatabase, type Db } from '../../src/service/storage/database';
import { startScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../support/scripted-llm';
import { instantTiming } from '../support/scripted-llm/instant-timing';

export const INTERRUPTED_NOTE = 'The note was interrupted.';

type NoteOutcome = 'done' | 'interrupted';

/** A note the test holds: it has started running and finishes when released or interrupted. */
interface HeldNote {
  started: Promise<void>;
  release(): void;
}

/**
 * A workspace without a sandbox: its one side-effecting tool, `write_note` (shaped like an MCP tool),
 * keeps notes in memory. A held note runs until the test releases it or the loop interrupts it (Stop).
 */
export class FakeWorkspace {
  readonly notes: string[] = [];
  interrupts = 0;
  private nextHeld: { started(): void; outcome: Promise<NoteOutcome> } | null = null;
  private finishHeld: ((outcome: NoteOutcome) => void) | null = null;
  private failure: string | null = null;

  readonly tool = defineTool<{ text: string }>({
    name: 'write_note',
    description: 'Writes a note.',
    parameters: z.object({ text: z.string() }),
    declaresRisk: 'optional',
    hasSideEffects: () => true,
    toAction: (args, thought) => ({ kind: 'mcp_call', name: 'write_note', arguments: args, thought }),
    analyzed: (args) => ({ tool: 'mcp', name: 'write_note', arguments: args }),
    execute: async ({ text }): Promise<ToolObservation> => {
      const failure = this.failure;
      this.failure = null;
      if (failure) throw new Error(failure);
      const held = this.nextHeld;
      this.nextHeld = null;
      held?.started();
      const outcome = held ? await held.outcome : 'done';
      this.finishHeld = null;
      if (outcome === 'done') this.notes.push(text);
      const content = outcome === 'done' ? `Noted: ${text}` : INTERRUPTED_NOTE;
      return { kind: 'mcp_result', name: 'write_note', arguments: { text }, text: content, success: true };
    },
  });

  /** The tools never use a sandbox; the loop reads only the shell's last working directory. */
  readonly context = { shell: { metadata: null } } as unknown as ToolContext;

  /** The next note, once started, waits for `release` or an interrupt. */
  hold(): HeldNote {
    let started = () => {};
    let finish: (outcome: NoteOutcome) => void = () => {};
    const startedOnce = new Promise<void>((resolve) => (started = resolve));
    const outcome = new Promise<NoteOutcome>((resolve) => (finish = resolve));
    this.nextHeld = { started, outcome };
    this.finishHeld = finish;
    return { started: startedOnce, release: () => finish('done') };
  }

  /** The next note throws `message`. */
  failNext(message: string): void {
    this.failure = message;
  }

  /** What the loop's Stop calls: a running held note ends as interrupted. */
  async interrupt(): Promise<void> {
    this.interrupts += 1;
    this.finishHeld?.('interrupted');
  }
}

export interface LoopOptions {
  confirmationMode?: boolean;
  maxIterations?: number;
  /** A state saved by an earlier loop of the same conversation, to `resume` from instead of starting. */
  conversation?: FakeConversation;
}

/** One conversation's event log on a real SQLite file, outliving the loops a test builds on it. */
export class FakeConversation {
  readonly id = 'c1';
  readonly saved: SavedAgentState[] = [];
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-loop-'));
  readonly db: Db = openDatabase(this.dir);
  readonly events = new EventLog(this.db);

  log(): V0Event[] {
    return this.events.after(this.id, -1);
  }

  /** The `agent_state_changed` states in order. */
  states(): string[] {
    return this.log()
      .filter((e) => e.observation === 'agent_state_changed')
      .map((e) => String(e.extras?.agent_state));
  }

  close(): void {
    this.db.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * An agent loop with no Docker: the fake workspace's tools with `think` and `finish`, a real event log,
 * and a real model client talking to a scripted LLM on 127.0.0.1. `close` ends both.
 */
export async function fakeWorkspaceLoop(steps: ScriptedStep[], options: LoopOptions = {}) {
  const llm: ScriptedLlm = await startScriptedLlm(steps);
  const conversation = options.conversation ?? new FakeConversation();
  const workspace = new FakeWorkspace();
  const statuses: StatusUpdate[] = [];
  const loop = new AgentLoop({
    conversationId: conversation.id,
    events: conversation.events,
    masker: new SecretMasker(),
    llm: createLlmClient({
      model: 'openai/gpt-4o',
      apiKey: 'sk-test-key',
      baseUrl: llm.baseUrl,
      timing: instantTiming().timing,
    }),
    tools: new ToolRegistry([workspace.tool, thinkTool, finishTool]),
    toolContext: workspace.context,
    secrets: { names: [], values: [] },
    config: {
      systemPrompt: 'You are a test agent.',
      recall: { workspace: () => ({ content: 'test workspace', extras: {} }), knowledge: () => null },
      maxIterations: options.maxIterations ?? 50,
      maxBudgetPerTask: null,
      version: '1.0.0',
      condenserEnabled: false,
      condenserMaxSize: null,
      contextWindow: 128_000,
      confirmationMode: options.confirmationMode ?? false,
      securityAnalyzer: null,
    },
    interrupt: () => workspace.interrupt(),
    onStatus: (status) => statuses.push(status),
    saveState: (state) => conversation.saved.push(state),
  });
  const close = async () => {
    await loop.settled();
    await llm.close();
    if (!options.conversation) conversation.close();
  };
  return { loop, llm, workspace, conversation, statuses, close };
}
