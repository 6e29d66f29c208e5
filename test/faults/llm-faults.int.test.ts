import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSandboxService, dockerSkipReason, startSandboxService } from '../sandbox/support';
import { openSseStream, type SseStream } from '../support/event-clients';
import type { TestService } from '../support/service';
import { faults, startScriptedLlm, type ScriptedLlm, type ScriptedStep } from '../support/scripted-llm';
import { until } from '../support/until';
import { allEvents, startConversation, untilAgentState, useScriptedLlm } from './support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the LLM fault tests through the service: ${skip}`);

/** No waiting between retries, and a 1 s idle timeout, through the service's environment variables. */
const TIMING_ENV = {
  DOCKHAND_LLM_BACKOFF_S: '0,0,0,0,0',
  DOCKHAND_LLM_RETRY_AFTER_CAP_S: '0',
  DOCKHAND_LLM_IDLE_TIMEOUT_S: '1',
};

const retries = (fault: ScriptedStep) => Array.from({ length: 6 }, () => fault);

interface Status {
  type: string;
  id: string;
  message: string;
}

/**
 * Cases the agent-loop test (429 recovered, 401) and the LLM client tests do not take through the whole
 * service: each plays 1 + 5 failed attempts (or a failure, then success) for one user message.
 */
const CASES: { name: string; steps: ScriptedStep[]; errorId: string | null }[] = [
  {
    name: '500 on every attempt',
    steps: retries(faults.serverError()),
    errorId: 'STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR',
  },
  {
    name: 'malformed JSON on every attempt',
    steps: retries(faults.malformedJson()),
    errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  },
  {
    name: 'a stream dropped on every attempt',
    steps: retries(faults.dropStream()),
    errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  },
  {
    name: 'a model that hangs past the idle timeout on every attempt',
    steps: retries(faults.hang()),
    errorId: 'STATUS$ERROR_LLM_SERVICE_UNAVAILABLE',
  },
  {
    name: '429 on every attempt',
    steps: retries(faults.rateLimited(0)),
    errorId: 'CHAT_INTERFACE$AGENT_RATE_LIMITED_STOPPED_MESSAGE',
  },
  { name: 'a hang, then an answer', steps: [faults.hang(), { text: 'Answered late.' }], errorId: null },
  {
    name: 'a dropped stream, then an answer',
    steps: [faults.dropStream(), { text: 'Whole.' }],
    errorId: null,
  },
];

describe.skipIf(skip !== null)('LLM faults through POST /api/conversations', () => {
  let service: TestService;
  let llm: ScriptedLlm;
  let id: string;
  let stream: SseStream;
  const saved = Object.fromEntries(Object.keys(TIMING_ENV).map((name) => [name, process.env[name]]));

  beforeAll(async () => {
    Object.assign(process.env, TIMING_ENV);
    llm = await startScriptedLlm([], {
      channels: [{ marker: '[dockhand:title]', step: { text: 'Fault title' } }],
    });
    service = await startSandboxService();
    await useScriptedLlm(service.api, llm);
    llm.push({ text: 'Ready.' });
    id = await startConversation(service.api, { initial_user_msg: 'hello' });
    await untilAgentState(service.api, id, ['awaiting_user_input']);
    stream = await openSseStream(service, id, { keyIn: 'header' });
  });

  afterAll(async () => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
    stream?.close();
    await closeSandboxService(service);
    await llm?.close();
  });

  const statusesSince = (from: number): Status[] =>
    stream
      .events()
      .slice(from)
      .filter((f) => f.event === 'status_update')
      .map((f) => JSON.parse(f.data) as Status);

  it.each(CASES)('$name: retries reported, then the named outcome; usable afterwards', async (c) => {
    const from = stream.events().length;
    const calls = llm.calls.length;
    llm.push(...c.steps);
    const sent = await service.api('POST', `/api/conversations/${id}/message`, {
      body: { message: c.name },
    });
    expect(sent.status).toBe(200);
    const settled = await until(
      () => allEvents(service.api, id),
      () =>
        llm.calls.length >= calls + c.steps.length &&
        statusesSince(from).some((s) => s.type === 'error' || c.errorId === null),
      'every scripted attempt',
    );
    const state = await untilAgentState(service.api, id, ['error', 'awaiting_user_input']);
    const retried = statusesSince(from).filter((s) => s.id === 'STATUS$LLM_RETRY');
    expect(retried.map((s) => s.message)).toEqual(
      Array.from({ length: c.steps.length - 1 }, (_, n) => `Retrying LLM request, ${n + 1} / 5`),
    );
    if (c.errorId) {
      expect(state.agent_state).toBe('error');
      expect(
        statusesSince(from)
          .filter((s) => s.type === 'error')
          .map((s) => s.id),
      ).toEqual([c.errorId]);
      const reason = settled.findLast((e) => e.observation === 'agent_state_changed')?.extras as {
        reason: string;
      };
      expect(reason.reason).toBeTruthy();
    } else {
      expect(state.agent_state).toBe('awaiting_user_input');
    }

    // The conversation stays usable: the next message gets an answer.
    llm.push({ text: `After ${c.name}.` });
    await service.api('POST', `/api/conversations/${id}/message`, { body: { message: 'still there?' } });
    await until(
      () => allEvents(service.api, id),
      (events) => events.some((e) => e.source === 'agent' && e.message === `After ${c.name}.`),
      'the answer after the fault',
    );
    await untilAgentState(service.api, id, ['awaiting_user_input']);
  });
});
