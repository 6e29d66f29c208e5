import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { dockerSkipReason } from '../sandbox/support';
import { ensureCliBuilt, startServe, type RunningCli } from '../support/cli';
import { openSseStream } from '../support/event-clients';
import { startScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../support/scripted-llm';
import { until } from '../support/until';
import {
  allEvents,
  apiOf,
  conversation,
  integrityCheck,
  removeSandboxesOf,
  serveEnvironment,
  startConversation,
  useScriptedLlm,
} from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the SIGKILL durability test: ${skip}`);

/** Events seen over SSE before the kill; enough to be sure the kill lands mid-stream. */
const SEEN_BEFORE_KILL = 150;

/** A model that thinks aloud forever: every call answers with a new `think` tool call. */
function thinkingSteps(count: number): ScriptedStep[] {
  return Array.from({ length: count }, (_, n) => ({
    toolCalls: [{ name: 'think', args: { thought: `step ${n}` } }],
  }));
}

describe.skipIf(skip !== null)('SIGKILL while events are being written', () => {
  let root: string;
  let llm: ScriptedLlm;
  const running: RunningCli[] = [];

  const serve = async () => {
    const cli = await startServe(['--data-dir', root, '--port', '0'], serveEnvironment());
    running.push(cli);
    return cli;
  };

  beforeAll(async () => {
    ensureCliBuilt();
    root = mkdtempSync(path.join(os.tmpdir(), 'dockhand-sigkill-'));
    llm = await startScriptedLlm(thinkingSteps(5000), {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Kill title' } }],
    });
  });

  afterAll(async () => {
    for (const cli of running) await cli.stop('SIGKILL');
    if (root) await removeSandboxesOf(root).catch(() => undefined);
    await llm?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('keeps every acknowledged event, gap-free and uncorrupted, and the conversation starts again', async () => {
    const first = await serve();
    const api = apiOf(first.port, first.key);
    await useScriptedLlm(api, llm);
    const id = await startConversation(api, { initial_user_msg: 'think out loud' });
    const stream = await openSseStream(first, id, { keyIn: 'header' });

    // A client posting messages while the agent writes; a 200 means the message was stored.
    const acknowledged: string[] = [];
    let posting = true;
    const poster = (async () => {
      for (let n = 0; posting; n++) {
        const text = `client message ${n}`;
        const sent = await api('POST', `/api/conversations/${id}/message`, { body: { message: text } }).catch(
          () => null,
        );
        if (sent?.status === 200) acknowledged.push(text);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    await until(
      async () => stream.events().filter((f) => f.event === 'oh_event').length,
      (seen) => seen >= SEEN_BEFORE_KILL,
      `${SEEN_BEFORE_KILL} events over SSE`,
    );
    const killed = await first.stop('SIGKILL');
    posting = false;
    await poster;
    await stream.ended;
    expect(killed.signal).toBe('SIGKILL');
    const seen = stream
      .events()
      .filter((f) => f.event === 'oh_event')
      .map((f) => JSON.parse(f.data) as V0Event);
    expect(seen.length).toBeGreaterThanOrEqual(SEEN_BEFORE_KILL);
    expect(acknowledged.length).toBeGreaterThan(0);

    const second = await serve();
    const again = apiOf(second.port, second.key);
    expect(integrityCheck(root)).toEqual(['ok']);
    const stored = await allEvents(again, id);
    expect(stored.map((e) => e.id)).toEqual(stored.map((_, i) => i));
    const byId = new Map(stored.map((e) => [e.id, e]));
    const lost = seen.filter((e) => JSON.stringify(byId.get(e.id)) !== JSON.stringify(e));
    expect(lost).toEqual([]);
    const userMessages = new Set(
      stored.filter((e) => e.source === 'user' && e.action === 'message').map((e) => e.message),
    );
    expect(acknowledged.filter((text) => !userMessages.has(text))).toEqual([]);

    expect((await conversation(again, id)).status).toBe('STOPPED');
    const started = await again('POST', `/api/conversations/${id}/start`, { body: {} });
    expect(started.status).toBe(200);
    await until(
      () => conversation(again, id),
      (c) => c.status === 'RUNNING',
      'the conversation running again',
    );
    const after = await allEvents(again, id);
    expect(after.slice(0, stored.length)).toEqual(stored);
    expect(after.map((e) => e.id)).toEqual(after.map((_, i) => i));
    await again('POST', `/api/conversations/${id}/stop`);
  });
});
