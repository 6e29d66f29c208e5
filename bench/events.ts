/**
 * Replay of a 10,000-event conversation to a new client, against reading the same rows from SQLite.
 *
 * Builds the conversation directly in a fresh data folder (the real EventLog on the real SQLite file),
 * starts the service on it, then times, alternately, a raw read of the rows, a new SSE client
 * (GET /api/conversations/{id}/events/stream, until `replay_done`) and a new socket.io client (oh_event
 * replay, until the last replayed event). Prints medians and ratios; exits with 1 when a replay takes more
 * than MAX_RATIO times its baseline: the raw read for SSE, which sends the stored JSON as is, and the read plus
 * `JSON.parse` for socket.io, which must parse every event to emit it as one `oh_event` message.
 *
 *   node --import tsx --import ./scripts/lib/raw-import.mjs bench/events.ts [--events 10000] [--runs 5]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { io as ioClient } from 'socket.io-client';
import { ConversationStore } from '../src/service/conversations/conversation-store';
import { EventLog } from '../src/service/events/event-log';
import { SecretMasker } from '../src/service/events/secret-masker';
import { createService } from '../src/service/index';
import { MemorySecretStore } from '../src/service/secrets/memory-store';
import { openDatabase } from '../src/service/storage/database';
import type { NewEvent } from '../src/shared/api/events';
import { blankConversation } from '../test/support/conversation-records';

const MAX_RATIO = 10;
const CONVERSATION = 'bench-events';
const KEY = 'bench-session-key-0123456789';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '10000' }, runs: { type: 'string', default: '5' } },
});
const EVENT_COUNT = Number(values.events);
const RUNS = Number(values.runs);

/** A realistic mix: commands with a few hundred bytes to a few KiB of output, thoughts and messages. */
function eventAt(i: number): NewEvent {
  const kind = i % 4;
  if (kind === 0) {
    const command = `rg -n "pattern_${i}" src | head -50`;
    return {
      source: 'agent',
      message: `Running command: ${command}`,
      action: 'run',
      args: { command, is_input: false, thought: `Looking for pattern ${i}`, blocking: false, hidden: false },
      tool_call_metadata: {
        function_name: 'execute_bash',
        tool_call_id: `call_${i}`,
        total_calls_in_response: 1,
      },
    };
  }
  if (kind === 1) {
    const output = Array.from(
      { length: 10 + (i % 40) },
      (_, l) => `src/file_${l}.ts:${l + 1}: match ${i}`,
    ).join('\n');
    return {
      source: 'agent',
      message: `Command executed with exit code 0.`,
      observation: 'run',
      content: output,
      extras: { command: 'rg', hidden: false, metadata: { exit_code: 0, working_dir: '/workspace/project' } },
      success: true,
      cause: i - 1,
    };
  }
  if (kind === 2)
    return {
      source: 'agent',
      message: `I am thinking...: step ${i}`,
      action: 'think',
      args: { thought: `Step ${i}: ${'consider the options '.repeat(5)}` },
    };
  return {
    source: 'user',
    message: `Message ${i}`,
    action: 'message',
    args: {
      content: `Please continue with step ${i}`,
      image_urls: [],
      file_urls: [],
      wait_for_response: false,
      security_risk: -1,
    },
  };
}

function buildDataFolder(dataDir: string): void {
  const db = openDatabase(dataDir);
  new ConversationStore(db).insert(
    blankConversation(CONVERSATION, {
      title: 'Benchmark',
      titleIsCustom: true,
      agentState: 'awaiting_user_input',
    }),
  );
  const log = new EventLog(db);
  const masker = new SecretMasker([]);
  db.transaction(() => {
    for (let i = 0; i < EVENT_COUNT; i++) log.append(CONVERSATION, eventAt(i), masker);
  })();
  db.close();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function timed(run: () => Promise<number> | number): Promise<{ ms: number; count: number }> {
  const started = process.hrtime.bigint();
  const count = await run();
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, count };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'dockhand-bench-events-'));
try {
  buildDataFolder(dataDir);
  const service = await createService({
    dataDir,
    port: 0,
    logger: pino({ level: 'silent' }),
    secretStore: new MemorySecretStore(),
    sessionApiKey: KEY,
    rateLimitPerSecond: 1_000_000,
    sandbox: { provider: 'process', idlePauseSeconds: 0 },
  });
  // Settings without an LLM key: sockets are accepted, and the start a socket asks for stops at that check.
  await service.context.settings.save({ llm_model: 'openai/gpt-4o' });
  const db = service.db;

  const rawRead = () =>
    (
      db
        .prepare('SELECT data FROM events WHERE conversation_id = ? AND id > ? ORDER BY id')
        .all(CONVERSATION, -1) as { data: string }[]
    ).length;
  const parsedRead = () =>
    (
      db
        .prepare('SELECT data FROM events WHERE conversation_id = ? AND id > ? ORDER BY id')
        .all(CONVERSATION, -1) as { data: string }[]
    ).map((row) => JSON.parse(row.data) as unknown).length;

  const sse = () =>
    new Promise<number>((resolve, reject) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: service.port,
        path: `/api/conversations/${CONVERSATION}/events/stream`,
        headers: { 'X-Session-API-Key': KEY },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        if (res.statusCode !== 200) reject(new Error(`SSE answered ${res.statusCode}`));
        let count = 0;
        let tail = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          const text = tail + chunk;
          const frames = text.split('\n\n');
          tail = frames.pop() ?? '';
          for (const frame of frames) {
            if (frame.startsWith('id: ')) count++;
            else if (frame.startsWith('event: replay_done')) {
              res.destroy();
              resolve(count);
            }
          }
        });
        res.on('end', () => reject(new Error(`the stream ended after ${count} events, before replay_done`)));
      });
      req.end();
    });

  // The socket replay skips `recall` actions and holds back all but the last agent_state_changed.
  const socketReplayCount = (
    db.prepare('SELECT COUNT(*) AS n FROM events WHERE conversation_id = ?').get(CONVERSATION) as {
      n: number;
    }
  ).n;
  const socket = () =>
    new Promise<number>((resolve, reject) => {
      let count = 0;
      const client = ioClient(service.url, {
        query: { conversation_id: CONVERSATION, latest_event_id: '-1', session_api_key: KEY },
        transports: ['websocket'],
        reconnection: false,
      });
      client.on('connect_error', reject);
      client.on('oh_event', (event: { id?: unknown }) => {
        if (typeof event.id !== 'number') return;
        count++;
        if (count === socketReplayCount) {
          client.close();
          resolve(count);
        }
      });
    });

  const measures = {
    raw: [] as number[],
    parsed: [] as number[],
    sse: [] as number[],
    socket: [] as number[],
  };
  const runs = { raw: rawRead, parsed: parsedRead, sse, socket };
  for (const run of Object.values(runs)) await run(); // warm-up
  for (let i = 0; i < RUNS; i++) {
    for (const [name, run] of Object.entries(runs)) {
      const { ms, count } = await timed(run);
      if (count !== EVENT_COUNT) throw new Error(`${name} delivered ${count} of ${EVENT_COUNT} events`);
      measures[name as keyof typeof measures].push(ms);
    }
  }
  await service.close();

  const raw = median(measures.raw);
  const row = (name: string, ms: number) =>
    `${name.padEnd(34)} ${ms.toFixed(1).padStart(8)} ms   ${(ms / raw).toFixed(1).padStart(6)}x raw read`;
  console.log(`Replay of ${EVENT_COUNT} events, median of ${RUNS} runs each:`);
  console.log(row('SQLite rows (strings)', raw));
  console.log(row('SQLite rows + JSON.parse', median(measures.parsed)));
  console.log(row('SSE client until replay_done', median(measures.sse)));
  console.log(row('socket.io client until last event', median(measures.socket)));
  const sseRatio = median(measures.sse) / raw;
  const socketRatio = median(measures.socket) / median(measures.parsed);
  console.log(
    `SSE ${sseRatio.toFixed(1)}x the raw read; socket.io ${socketRatio.toFixed(1)}x the parsed read`,
  );
  if (Math.max(sseRatio, socketRatio) > MAX_RATIO) {
    console.error(`A replay took more than ${MAX_RATIO}x its baseline.`);
    process.exitCode = 1;
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
