/**
 * One load run against a running Dockhand service: N conversations, each with its own Docker sandbox and
 * the scripted LLM, driven round after round (message -> command in the sandbox -> reply) while autocannon
 * reads the API at a fixed overall rate. Used by bench/load.ts and, smaller, by the CI test.
 */
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { V0Event } from '../src/shared/api/events';
import { allEvents, type Api, conversation, startConversation } from '../test/faults/support';
import type { RecordedLlmRequest, ScriptedLlm, ScriptedOutcome } from '../test/support/scripted-llm';

export interface LoadOptions {
  api: Api;
  url: string;
  key: string;
  llm: ScriptedLlm;
  conversations: number;
  durationS: number;
  /** Reads per second over the whole run. */
  rate: number;
}

export interface LoadResult {
  reads: number;
  /** Failed reads (errors, timeouts, non-2xx) plus failed driver requests. */
  failures: number;
  failureNotes: string[];
  p50Ms: number;
  p99Ms: number;
  /** Completed message -> command -> reply rounds, per conversation. */
  rounds: number[];
  /** Conversations whose event ids were not 0..n-1. */
  gaps: number;
}

/** The agent's model: a command in the sandbox for a user message, a text reply for a command's result. */
export function roundTripStep(request: RecordedLlmRequest): ScriptedOutcome {
  const messages = (request.body?.messages ?? []) as { role: string }[];
  if (messages.at(-1)?.role === 'tool') return { text: 'Done.' };
  return { toolCalls: [{ name: 'execute_bash', args: { command: 'echo load', security_risk: 'LOW' } }] };
}

/** CPU time (user + system) a process has used so far (Linux), in seconds. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  // utime and stime are fields 14 and 15 of stat, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export interface ServerLatency {
  p50Ms: number;
  p99Ms: number;
  /** The request path (query and ids left out) with the highest p99, and that p99. */
  slowestPath: string;
  slowestP99Ms: number;
  /** Lines in the log, where the next run's lines start. */
  lines: number;
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/**
 * p50/p99 of the time the service itself took for GET requests (the `ms` of its request log lines), from
 * line `fromLine` of `<dataDir>/logs/dockhand.log`: unlike client latency, free of the load generator's own
 * waiting on a busy machine.
 */
export function serverSideLatency(logFile: string, fromLine: number): ServerLatency {
  const lines = readFileSync(logFile, 'utf8').split('\n');
  const byPath = new Map<string, number[]>();
  for (const line of lines.slice(fromLine)) {
    if (!line.includes('"msg":"request"') || !line.includes('"method":"GET"')) continue;
    const { url, ms } = JSON.parse(line) as { url: string; ms: number };
    const route = url.split('?')[0]?.replace(/\/[0-9a-f]{32}(?=\/|$)/, '/{id}') ?? url;
    byPath.set(route, [...(byPath.get(route) ?? []), ms]);
  }
  const all = [...byPath.values()].flat().sort((a, b) => a - b);
  const slowest = [...byPath]
    .map(([route, times]) => ({
      route,
      p99: percentile(
        times.sort((a, b) => a - b),
        0.99,
      ),
    }))
    .sort((a, b) => b.p99 - a.p99)[0];
  return {
    p50Ms: percentile(all, 0.5),
    p99Ms: percentile(all, 0.99),
    slowestPath: slowest?.route ?? '-',
    slowestP99Ms: slowest?.p99 ?? 0,
    lines: lines.length,
  };
}

/** Resident memory of a process (Linux), in MiB. */
export function rssMiB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) / 1024;
}

const READ_PATHS = (ids: string[]) => [
  '/api/conversations?limit=20',
  '/server_info',
  '/api/settings',
  '/api/v1/sandboxes/search',
  ...ids.flatMap((id) => [`/api/conversations/${id}`, `/api/conversations/${id}/events?limit=20`]),
];

/** How long a round still in progress at the end may take to finish. */
const ROUND_GRACE_MS = 60_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Drives one conversation round after round until `deadline`; returns its completed rounds. */
async function drive(api: Api, id: string, deadline: number, notes: string[]): Promise<number> {
  let rounds = 0;
  let sent = true; // the initial message
  const giveUp = deadline + ROUND_GRACE_MS;
  while ((Date.now() < deadline || sent) && Date.now() < giveUp) {
    const view = await conversation(api, id);
    if (view.agent_state === 'error') notes.push(`${id}: agent error`);
    if (view.agent_state === 'awaiting_user_input' || view.agent_state === 'error') {
      if (sent) rounds++;
      sent = false;
      if (Date.now() >= deadline) break;
      const posted = await api('POST', `/api/conversations/${id}/message`, {
        body: { message: `round ${rounds}` },
      });
      if (posted.status !== 200) notes.push(`${id}: message ${posted.status} ${posted.text}`);
      else sent = true;
    }
    await sleep(250);
  }
  if (sent) notes.push(`${id}: a round did not finish within ${ROUND_GRACE_MS / 1000} s of the end`);
  return rounds;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { api } = options;
  const notes: string[] = [];
  // A driver polls every 250 ms, so a conversation asks the model at most 8 times a second.
  const calls = options.conversations * (options.durationS + ROUND_GRACE_MS / 1000) * 8;
  for (let i = 0; i < calls; i++) options.llm.push(roundTripStep);
  const ids = await Promise.all(
    Array.from({ length: options.conversations }, () => startConversation(api, { initial_user_msg: 'go' })),
  );
  const deadline = Date.now() + options.durationS * 1000;
  const drivers = Promise.all(ids.map((id) => drive(api, id, deadline, notes)));
  const reads = await autocannon({
    url: options.url,
    headers: { 'X-Session-API-Key': options.key },
    // Enough connections to keep the rate when answers slow down under load.
    connections: 40,
    overallRate: options.rate,
    duration: options.durationS,
    requests: READ_PATHS(ids).map((path) => ({ method: 'GET' as const, path })),
  });
  const rounds = await drivers;

  let gaps = 0;
  for (const id of ids) {
    const events: V0Event[] = await allEvents(api, id);
    if (events.some((e, i) => e.id !== i)) gaps++;
    const deleted = await api('DELETE', `/api/conversations/${id}`);
    if (deleted.status !== 200) notes.push(`${id}: delete ${deleted.status} ${deleted.text}`);
  }
  const readFailures = reads.errors + reads.timeouts + reads.non2xx;
  if (readFailures)
    notes.push(`reads: ${reads.errors} errors, ${reads.timeouts} timeouts, ${reads.non2xx} non-2xx`);
  return {
    reads: reads.requests.total,
    failures: readFailures + notes.filter((n) => !n.startsWith('reads:')).length,
    failureNotes: notes,
    p50Ms: reads.latency.p50,
    p99Ms: reads.latency.p99,
    rounds,
    gaps,
  };
}
