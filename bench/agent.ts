/**
 * The agent loop's own cost per step: one 200-step conversation of trivial commands against a
 * dockhand/sandbox container and the scripted LLM server (in a child process). Each step's wall time (from one command result
 * to the next) minus the LLM server's time and the shell's time is the loop's overhead; a baseline in the
 * same run does the same LLM HTTP call and shell round trip without the loop. Fails above a 5 ms median.
 * Run: node --import tsx --import ./scripts/lib/raw-import.mjs bench/agent.ts
 */
import Docker from 'dockerode';
import diagnostics from 'node:diagnostics_channel';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { AgentLoop } from '../src/service/agent/agent-loop';
import { AgentStateStore } from '../src/service/agent/agent-state-store';
import { createLlmClient } from '../src/service/agent/llm/llm-client';
import type { LlmClient } from '../src/service/agent/llm/llm-types';
import { EditHistory } from '../src/service/agent/tools/str-replace-editor/edit-history';
import { Editor } from '../src/service/agent/tools/str-replace-editor/editor';
import { ToolRegistry } from '../src/service/agent/tools/registry';
import { TaskList } from '../src/service/agent/tools/task-list';
import systemPrompt from '../src/service/agent/prompts/system-prompt.md?raw';
import { ConversationStore } from '../src/service/conversations/conversation-store';
import { EventLog } from '../src/service/events/event-log';
import { SecretMasker } from '../src/service/events/secret-masker';
import { DockerSandboxFiles } from '../src/service/sandbox/files/docker-files';
import { DockerShellTransport } from '../src/service/sandbox/shell/docker-transport';
import type { ShellResult } from '../src/service/sandbox/shell/shell-result';
import { ShellSession, type ExecuteRequest } from '../src/service/sandbox/shell/shell-session';
import { dockerUnavailableReason, removeContainer, startTestContainer } from '../test/support/test-sandboxes';
import { openDatabase } from '../src/service/storage/database';
import { tempDataDir } from '../test/support/service';
import { blankConversation } from '../test/support/conversation-records';
import { startScriptedLlmProcess, type ChildLlmCall } from './support/scripted-llm-child';

const STEPS = 200;
const TARGET_MEDIAN_MS = 5;
const CONVERSATION = 'bench-agent';
const CONDENSER_MARKER = '[dockhand:condenser]';

interface Interval {
  start: number;
  end: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

/** The time of `intervals` inside [start, end]. */
function within(intervals: Interval[], start: number, end: number): number {
  return intervals.reduce((sum, i) => sum + Math.max(0, Math.min(end, i.end) - Math.max(start, i.start)), 0);
}

function serverIntervals(requests: ChildLlmCall[]): Interval[] {
  return requests.map((r) => ({ start: r.startedAt, end: r.endedAt ?? r.startedAt }));
}

/** Records how long each command spends in the shell session. */
function timedShell(shell: ShellSession, into: Interval[]): ShellSession {
  const execute = shell.execute.bind(shell);
  shell.execute = async (request: ExecuteRequest): Promise<ShellResult> => {
    const start = performance.now();
    const result = await execute(request);
    into.push({ start, end: performance.now() });
    return result;
  };
  return shell;
}

/** Records when each model call starts and returns, to split a step into the agent's and the client's part. */
function timedLlm(llm: LlmClient, into: Interval[]): LlmClient {
  const complete = llm.complete.bind(llm);
  return {
    ...llm,
    async complete(request) {
      const start = performance.now();
      try {
        return await complete(request);
      } finally {
        into.push({ start, end: performance.now() });
      }
    },
  };
}

/** When fetch has written each request body (Node's undici reports it on a diagnostics channel). */
function requestsSent(): number[] {
  const sent: number[] = [];
  diagnostics.subscribe('undici:request:bodySent', () => sent.push(performance.now()));
  return sent;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function report(name: string, overheads: number[]): { median: number; p95: number } {
  const median = percentile(overheads, 50);
  const p95 = percentile(overheads, 95);
  console.log(
    `${name}: median ${median.toFixed(2)} ms, p95 ${p95.toFixed(2)} ms per step (${overheads.length} steps)`,
  );
  return { median, p95 };
}

const docker = new Docker();
const unavailable = await dockerUnavailableReason(docker);
if (unavailable) {
  console.error(`agent bench: cannot run, ${unavailable}`);
  process.exit(2);
}

const container = await startTestContainer(docker, 'agent-bench');
const dataDir = tempDataDir();
const db = openDatabase(dataDir);
const steps = Array.from({ length: STEPS }, (_, i) => ({
  toolCalls: [
    {
      id: `call_${i}`,
      name: 'execute_bash',
      args: { command: i % 2 ? `echo ${i}` : 'true', security_risk: 'LOW' },
    },
  ],
}));
const llm = await startScriptedLlmProcess([...steps, { text: 'Done.' }], {
  channels: [{ marker: CONDENSER_MARKER, step: { text: 'USER_CONTEXT: a benchmark of trivial commands.' } }],
});
const shellTimes: Interval[] = [];
const modelCalls: Interval[] = [];
const bodiesSent = requestsSent();
const shell = timedShell(new ShellSession(new DockerShellTransport(container)), shellTimes);
try {
  await shell.start();
  const files = new DockerSandboxFiles(container);
  new ConversationStore(db).insert(blankConversation(CONVERSATION, { title: 'bench', status: 'RUNNING' }));
  const events = new EventLog(db);
  const states = new AgentStateStore(db);
  const loop = new AgentLoop({
    conversationId: CONVERSATION,
    events,
    masker: new SecretMasker(['bench-secret-value']),
    llm: timedLlm(
      createLlmClient({ model: 'openai/gpt-4o', apiKey: 'sk-bench', baseUrl: llm.baseUrl }),
      modelCalls,
    ),
    tools: new ToolRegistry(),
    toolContext: {
      shell,
      editor: new Editor(
        {
          read: (p) => files.read(p),
          write: (p, d, o) => files.write(p, d, o),
          stat: (p) => files.stat(p),
          list: (p) => files.list(p),
          remove: () => Promise.reject(new Error('not used')),
        },
        new EditHistory(db, CONVERSATION),
        () => '/workspace/project',
      ),
      tasks: new TaskList(path.join(dataDir, CONVERSATION)),
    },
    secrets: { names: [], values: ['bench-secret-value'] },
    config: {
      systemPrompt,
      recall: {
        workspace: () => ({ content: '<RUNTIME_INFORMATION>bench</RUNTIME_INFORMATION>', extras: {} }),
        knowledge: () => null,
      },
      maxIterations: STEPS + 10,
      maxBudgetPerTask: null,
      version: '1.0.0',
      condenserEnabled: true,
      condenserMaxSize: null,
      contextWindow: 128_000,
      confirmationMode: false,
      securityAnalyzer: null,
    },
    interrupt: () => shell.interrupt(),
    saveState: (state) => states.save(CONVERSATION, state),
  });
  const results: number[] = [];
  events.subscribe(CONVERSATION, (event) => {
    if (event.kind === 'command_result') results.push(performance.now());
  });
  const started = performance.now();
  const loopCpu = process.cpuUsage();
  loop.start({ content: 'Run the commands.' });
  await loop.settled();
  const total = performance.now() - started;
  const loopCpuMs = cpuMs(process.cpuUsage(loopCpu));
  if (loop.state !== 'awaiting_user_input' || results.length !== STEPS) {
    throw new Error(`the loop ended ${loop.state} after ${results.length} of ${STEPS} commands`);
  }
  const loopCalls = await llm.calls([CONDENSER_MARKER]);
  const servers = serverIntervals(loopCalls);
  const loopOverheads = results.slice(1).map((end, i) => {
    const start = results[i] as number;
    return end - start - within(servers, start, end) - within(shellTimes, start, end);
  });
  // Where the overhead goes: the agent's own work before and after the model call, the AI SDK client's
  // work around the HTTP exchange (building and sending the request, parsing the streamed reply), and
  // recording the command's result.
  const agentCalls = loopCalls.filter((c) => c.markers.length === 0);
  const phases = results.slice(1).flatMap((end, i) => {
    const start = results[i] as number;
    const server = agentCalls.filter((c) => c.startedAt > start && c.startedAt < end).at(-1);
    const client = modelCalls.filter((c) => c.start > start && c.end < end).at(-1);
    const sent = client && bodiesSent.find((t) => t > client.start && t < client.end);
    const command = shellTimes.find((t) => t.start > start && t.end <= end);
    if (!server?.endedAt || !client || sent === undefined || !command) return [];
    return [
      [
        client.start - start,
        sent - client.start,
        client.end - server.endedAt,
        command.start - client.end,
        end - command.end,
      ],
    ];
  });
  const condensations = loopCalls.length - agentCalls.length;

  // Baseline: the same model call over HTTP and the same shell round trip, without the loop.
  await llm.push(...steps);
  const baselineShell: Interval[] = [];
  const baselineOverheads: number[] = [];
  const before = loopCalls.length;
  const baselineSteps: Interval[] = [];
  const baselineCpu = process.cpuUsage();
  for (let i = 0; i < STEPS; i++) {
    const start = performance.now();
    const response = await fetch(`${llm.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
      body: JSON.stringify({ model: 'gpt-4o', stream: true, messages: [{ role: 'user', content: 'next' }] }),
    });
    await response.text();
    const shellStart = performance.now();
    await shell.execute({ command: i % 2 ? `echo ${i}` : 'true' });
    const end = performance.now();
    baselineShell.push({ start: shellStart, end });
    baselineSteps.push({ start, end });
  }
  const baselineCpuMs = cpuMs(process.cpuUsage(baselineCpu));
  const baselineCalls = (await llm.calls()).slice(before);
  baselineSteps.forEach(({ start, end }, i) => {
    const server = serverIntervals(baselineCalls.slice(i, i + 1));
    baselineOverheads.push(end - start - within(server, start, end) - within(baselineShell, start, end));
  });

  console.log(
    `${STEPS} steps in ${(total / 1000).toFixed(2)} s (${condensations} condensations); overhead = step wall time - LLM server time - shell time`,
  );
  const agent = report('agent loop', loopOverheads);
  const raw = report('baseline (HTTP call + shell round trip)', baselineOverheads);
  console.log(
    `loop overhead / baseline overhead: median ${(agent.median / raw.median).toFixed(1)}x, p95 ${(agent.p95 / raw.p95).toFixed(1)}x`,
  );
  console.log(
    `process CPU per step (loop and shell parsing; the LLM server has its own process): agent loop ${(loopCpuMs / STEPS).toFixed(2)} ms, baseline ${(baselineCpuMs / STEPS).toFixed(2)} ms`,
  );
  const phase = (n: number) =>
    percentile(
      phases.map((p) => p[n] as number),
      50,
    ).toFixed(2);
  console.log(
    `agent loop median phases: agent before the model call ${phase(0)} ms; model client: request built and sent ${phase(1)} ms, reply parsed after the server's last byte ${phase(2)} ms; agent from reply to command ${phase(3)} ms; command to result ${phase(4)} ms`,
  );
  console.log(
    `target: median <= ${TARGET_MEDIAN_MS} ms (machine load average: ${os.loadavg()[0]?.toFixed(1)})`,
  );
  if (agent.median > TARGET_MEDIAN_MS) process.exitCode = 1;
} finally {
  await shell.close().catch(() => undefined);
  await llm.close();
  await removeContainer(container);
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
}
