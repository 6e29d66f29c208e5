import { expect } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import type { AcpAgentKind } from '../../src/shared/api/agents';
import type { V0Event } from '../../src/shared/api/events';
import type { AcpHost, AgentFolder } from '../../src/service/acp/acp-host';
import { AgentInstalls, type InstalledAgent } from '../../src/service/acp/agent-installs';
import { installerNpm } from '../../src/service/acp/installer-npm';
import type { ScriptedLlm, RecordedLlmRequest, ScriptedOutcome } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';

/** Where the tests install the pinned agents, once per machine (CI caches this folder). */
export const AGENT_CACHE = path.join(os.tmpdir(), 'dockhand-acp-agents');

/**
 * The agent's pinned package installed by Dockhand's own installer (the npm registry, install scripts off),
 * into the tests' cache folder, once per machine. Prints the time and size of the install.
 */
export async function installedAgent(kind: AcpAgentKind): Promise<InstalledAgent> {
  const npm = installerNpm(process.env);
  if (!npm) throw new Error('The tests found no npm to install the agents with.');
  const installs = new AgentInstalls({
    root: AGENT_CACHE,
    npm,
    arch: process.arch,
    environment: process.env,
  });
  await installs.init();
  const before = await installs.status(kind);
  const installed = await installs.ensure(kind);
  const { size_bytes: bytes, install_seconds: seconds } = await installs.status(kind);
  const spec = installed.spec;
  console.log(
    `${spec.label} ${spec.packageName}@${spec.version}: ${((bytes ?? 0) / 1e6).toFixed(0)} MB, ` +
      `installed in ${seconds?.toFixed(1)} s${before.state === 'installed' ? ' (earlier, from the cache)' : ''}`,
  );
  return installed;
}

/** How the model gateway's placeholder tokens begin (what the agents get instead of a key). */
export const GATEWAY_TOKEN_PREFIX = 'dockhand-gw-';

/**
 * The service's ACP host for a test: the agent from the test's install; the model endpoint is the
 * service's own gateway on 127.0.0.1 (a Docker sandbox reaches it with host networking).
 */
export function testAcpHost(installed: AgentFolder, startTimeoutSeconds = 120): Partial<AcpHost> {
  return { install: () => Promise.resolve(installed), startTimeoutSeconds };
}

/**
 * A script for an agent that also makes calls of its own (titles, topic checks): requests `isTurn` accepts
 * take the next outcome of `turns`; the others are answered `other`. Push `steps(n)` into the server.
 */
type Outcome = ScriptedOutcome | ((request: RecordedLlmRequest) => ScriptedOutcome);

/** An outcome for the first turn whose request carries `after` (a user message), not for a call before it. */
export interface AfterMessage {
  after: string;
  outcome: Outcome;
}

export class AgentScript {
  private readonly queue: (Outcome | AfterMessage)[] = [];
  readonly turns: RecordedLlmRequest[] = [];

  constructor(
    private readonly isTurn: (request: RecordedLlmRequest) => boolean,
    private readonly other: ScriptedOutcome = { text: 'ok' },
  ) {}

  add(...outcomes: (Outcome | AfterMessage)[]): void {
    this.queue.push(...outcomes);
  }

  get remaining(): number {
    return this.queue.length;
  }

  step = (request: RecordedLlmRequest): ScriptedOutcome => {
    if (!this.isTurn(request)) return this.other;
    const head = this.queue[0];
    // A call the agent makes on its own between turns (with its tools) is not the turn the step waits for.
    if (head && 'after' in head && !request.rawBody.includes(head.after)) return this.other;
    this.turns.push(request);
    const next = this.queue.shift();
    if (!next) return { text: 'The script has nothing more.' };
    const outcome = 'after' in next ? next.outcome : next;
    return typeof outcome === 'function' ? outcome(request) : outcome;
  };
}

/** Feeds the scripted server `count` steps that each ask `script` what to answer. */
export function playScript(llm: ScriptedLlm, script: AgentScript, count = 200): void {
  for (let i = 0; i < count; i++) llm.push(script.step);
}

export async function events(service: TestService, id: string): Promise<V0Event[]> {
  return (
    (await service.api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }
  ).events;
}

/** Waits until the conversation's agent is in `state`, and answers its events. */
export async function untilAgentState(service: TestService, id: string, state: string): Promise<V0Event[]> {
  await until(
    async () => (await service.api('GET', `/api/conversations/${id}`)).json as { agent_state: string | null },
    (info) => info.agent_state === state,
    `the agent to be ${state}`,
  );
  return events(service, id);
}

/** Waits for an event that `match` accepts; on a timeout, prints the conversation's last events. */
export async function untilEvent(
  service: TestService,
  id: string,
  match: (event: V0Event) => boolean,
  what: string,
): Promise<V0Event> {
  try {
    const all = await until(
      () => events(service, id),
      (list) => list.some(match),
      what,
    );
    return all.find(match) as V0Event;
  } catch (error) {
    console.log(
      `Last events while waiting for ${what}:`,
      JSON.stringify((await events(service, id)).slice(-6), null, 1),
    );
    throw error;
  }
}

/** Starts a V1 conversation of `agent` with `text` and waits for its start task: the conversation and sandbox. */
export async function startAgentConversation(
  service: TestService,
  agent: AcpAgentKind,
  text: string,
): Promise<{ id: string; sandboxId: string }> {
  const task = (
    await service.api('POST', '/api/v1/app-conversations', {
      body: { agent, initial_message: { content: [{ type: 'text', text }] } },
    })
  ).json as { id: string };
  const ready = await until(
    async () =>
      (
        (await service.api('GET', `/api/v1/app-conversations/start-tasks?ids=${task.id}`)).json as {
          status: string;
          detail: string | null;
          app_conversation_id: string;
          sandbox_id: string;
        }[]
      )[0],
    (t) => t?.status === 'READY' || t?.status === 'ERROR',
    'the start task',
  );
  expect(ready, ready?.detail ?? '').toMatchObject({ status: 'READY' });
  return { id: ready?.app_conversation_id as string, sandboxId: ready?.sandbox_id as string };
}
