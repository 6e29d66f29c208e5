import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewEvent, V0Event } from '../../src/shared/api/events';
import { condensedView } from '../../src/service/agent/condenser/condensed-view';
import { Condenser, SUMMARY_OVERFLOW_TEXT } from '../../src/service/agent/condenser/condenser';
import { CONDENSER_MARKER } from '../../src/service/agent/condenser/llm-summarizer';
import { maskOldOutputs } from '../../src/service/agent/condenser/observation-masking';
import { CONTEXT_OVERFLOW_ERROR, OverflowStreak } from '../../src/service/agent/condenser/overflow-streak';
import { bashCalls, startConversation } from '../support/condenser-conversation';
import { tokenEstimate } from '../../src/service/agent/condenser/token-estimate';
import { createLlmClient } from '../../src/service/agent/llm/llm-client';
import { LlmError } from '../../src/service/agent/llm/llm-errors';
import type { LlmClient } from '../../src/service/agent/llm/llm-types';
import { buildMessages } from '../../src/service/agent/message-builder';
import { EventLog } from '../../src/service/events/event-log';
import { SecretMasker } from '../../src/service/events/secret-masker';
import { openDatabase, type Db } from '../../src/service/storage/database';
import { tempDataDir } from '../support/service';
import {
  faults,
  startScriptedLlm,
  type RecordedLlmRequest,
  type ScriptedLlm,
  type ScriptedStep,
} from '../support/scripted-llm';
import { instantTiming } from '../support/scripted-llm/instant-timing';
import type { NewDockhandEvent } from '../../src/service/events/model/dockhand-event';
import { toV0 } from '../../src/service/events/model/v0-codec';

const SECRET = 'condenser-s3cr3t';
const SYSTEM_PROMPT = 'You are a test agent.';
const CONVERSATION = 'c1';

interface WireMessage {
  role: string;
  content: unknown;
  tool_calls?: { id: string }[];
  tool_call_id?: string;
}

function wireMessages(request: RecordedLlmRequest | undefined): WireMessage[] {
  return (request?.body?.messages ?? []) as WireMessage[];
}

function systemText(request: RecordedLlmRequest | undefined): string {
  return String(wireMessages(request)[0]?.content ?? '');
}

describe('condenser against the scripted LLM through the real client', () => {
  let dataDir: string;
  let db: Db;
  let events: EventLog;
  let scripted: ScriptedLlm;
  let llm: LlmClient;
  const masker = new SecretMasker([SECRET]);

  const append = (event: NewEvent | NewDockhandEvent) =>
    'kind' in event
      ? toV0(events.add(CONVERSATION, event as NewDockhandEvent, masker))
      : events.append(CONVERSATION, event, masker);
  const log = () => events.after(CONVERSATION, -1);

  async function start(steps: ScriptedStep[]) {
    scripted = await startScriptedLlm(steps);
    llm = createLlmClient({
      model: 'openai/gpt-4o',
      apiKey: 'sk-test',
      baseUrl: scripted.baseUrl,
      timing: instantTiming().timing,
    });
  }

  /** The agent request the loop would send for the current log. */
  function agentRequest() {
    const view = condensedView(log());
    const messages = buildMessages(maskOldOutputs(view));
    return { view, messages, estimate: tokenEstimate(llm.route, { system: SYSTEM_PROMPT, messages }) };
  }

  beforeEach(() => {
    dataDir = tempDataDir();
    db = openDatabase(dataDir);
    events = new EventLog(db);
  });

  afterEach(async () => {
    await scripted?.close();
    db?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('summarizes above 120 events; the next view and request are prefix + summary + tail', async () => {
    const summary = `USER_CONTEXT: make the tests pass\nCURRENT_STATE: token ${SECRET} exported`;
    await start([{ text: summary }, { text: 'Continuing.' }]);
    startConversation(append);
    bashCalls(append, 61);
    const before = agentRequest();
    expect(before.view).toHaveLength(3 + 122);

    const outcome = await new Condenser().maybeCondense({
      view: before.view,
      contextWindow: 128_000,
      estimatedPromptTokens: before.estimate,
      requested: false,
      enabled: true,
      llm,
    });
    if (!outcome) throw new Error('no condensation');
    const condensation = append(outcome.condensation);

    // The first 4 are kept less call 1's action (its result is summarized), the last 55 less a result
    // whose action is summarized: the rest is one range.
    const forgotten = before.view.slice(3, -54);
    const tail = before.view.slice(-54);
    expect(condensation).toMatchObject({
      source: 'agent',
      action: 'condensation',
      args: {
        forgotten_event_ids: null,
        forgotten_events_start_id: forgotten[0]?.id,
        forgotten_events_end_id: forgotten.at(-1)?.id,
        summary: summary.replace(SECRET, '<secret_hidden>'),
        summary_offset: 3,
      },
    });
    expect(outcome.summaryCall?.cost).toMatchObject({ known: true, source: 'price_table' });
    expect(outcome.summaryCall?.cost.usd).toBeGreaterThan(0);

    const summaryRequest = scripted.calls[0];
    expect(systemText(summaryRequest)).toContain(CONDENSER_MARKER);
    const summarized = String(wireMessages(summaryRequest)[1]?.content);
    for (const event of forgotten) expect(summarized).toContain(`<EVENT id=${event.id} `);
    for (const event of [...before.view.slice(0, 3), ...tail])
      expect(summarized).not.toContain(`<EVENT id=${event.id} `);

    const after = agentRequest();
    expect(after.view.map((e) => e.id)).toEqual([1, 3, 4, condensation.id, ...tail.map((e) => e.id)]);
    expect(after.view[3]).toMatchObject({ observation: 'condense', content: condensation.args?.summary });
    expect(after.estimate).toBeLessThan(before.estimate);

    db.close();
    db = openDatabase(dataDir);
    events = new EventLog(db);
    expect(condensedView(log())).toEqual(after.view);

    await llm.complete({ system: SYSTEM_PROMPT, messages: after.messages });
    const sent = wireMessages(scripted.calls[1]);
    expect(systemText(scripted.calls[1])).not.toContain(CONDENSER_MARKER);
    expect(sent.slice(1, 3).map((m) => m.content)).toEqual([
      'Make the tests pass.',
      '<RUNTIME_INFORMATION>The working directory is /workspace/project.',
    ]);
    const calls = sent.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []);
    const results = sent.flatMap((m) => (m.tool_call_id ? [m.tool_call_id] : []));
    expect(calls).toEqual(results);
    expect(calls).toEqual(
      tail
        .filter((e) => e.action === 'run')
        .map((e) => (e.tool_call_metadata as { tool_call_id: string }).tool_call_id),
    );
    expect(scripted.remaining).toBe(0);
  });

  it('runs the window with the fallback summary when the summary call overflows', async () => {
    await start([faults.contextExceeded()]);
    startConversation(append);
    bashCalls(append, 61);
    const before = agentRequest();
    const outcome = await new Condenser().maybeCondense({
      view: before.view,
      contextWindow: 128_000,
      estimatedPromptTokens: before.estimate,
      requested: false,
      enabled: true,
      llm,
    });
    if (!outcome) throw new Error('no condensation');
    expect(systemText(scripted.calls[0])).toContain(CONDENSER_MARKER);
    expect(outcome.summaryCall).toBeNull();
    const condensation = append(outcome.condensation);
    expect(condensation.args).toMatchObject({ summary: SUMMARY_OVERFLOW_TEXT, summary_offset: 3 });
    // The newest half of the 122 call events stays, less its first, a result whose action went.
    const kept = before.view.slice(-60);
    expect(condensedView(log()).map((e) => e.id)).toEqual([
      1,
      3,
      4,
      condensation.id,
      ...kept.map((e) => e.id),
    ]);
  });

  it('condenses with the window after each overflow and stops at the third in a row', async () => {
    await start([faults.contextExceeded(), faults.contextExceeded(), faults.contextExceeded()]);
    startConversation(append);
    bashCalls(append, 8);
    const condenser = new Condenser();
    const streak = new OverflowStreak();
    const outcomes: string[] = [];
    for (let step = 0; step < 3; step++) {
      const { messages } = agentRequest();
      const error = await llm.complete({ system: SYSTEM_PROMPT, messages }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LlmError);
      expect((error as LlmError).kind).toBe('context_overflow');
      if (streak.overflowed()) {
        outcomes.push(CONTEXT_OVERFLOW_ERROR);
        break;
      }
      const { view, estimate } = agentRequest();
      const outcome = await condenser.maybeCondense({
        view,
        contextWindow: 128_000,
        estimatedPromptTokens: estimate,
        requested: true,
        enabled: true,
        llm,
      });
      if (!outcome) throw new Error('no condensation');
      outcomes.push(
        `dropped ${String((append(outcome.condensation) as V0Event).args?.forgotten_events_start_id)}`,
      );
    }
    // 16 call events, then 8: the older half goes each time (with a result whose action went).
    expect(outcomes).toEqual(['dropped 5', 'dropped 13', CONTEXT_OVERFLOW_ERROR]);
    expect(condensedView(log()).map((e) => e.id)).toEqual([1, 3, 4, 17, 18, 19, 20]);
    expect(scripted.calls).toHaveLength(3);
    expect(scripted.remaining).toBe(0);
  });
});
