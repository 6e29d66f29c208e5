import { describe, expect, it } from 'vitest';
import type { NewEvent } from '../../../shared/api/events';
import { LlmError } from '../llm/llm-errors';
import type { LlmClient, LlmRequest, LlmResponse } from '../llm/llm-types';
import { resolveModelRoute } from '../llm/model-routing';
import { condensedView } from './condensed-view';
import { Condenser, SUMMARY_OVERFLOW_TEXT, type CondenseInput } from './condenser';
import { CONDENSER_MARKER } from './llm-summarizer';
import { bashCalls, memoryLog, startConversation } from '../../../../test/support/condenser-conversation';
import { llmResponse } from '../../../../test/support/llm-response';

function reply(text: string): LlmResponse {
  return llmResponse({
    text,
    usage: { prompt: 900, completion: 100 },
    cost: { usd: 0.01, known: true, source: 'price_table' },
    responseId: 'summary-1',
    latencyMs: 5,
  });
}

/** A model client answering from `answer`, recording each request. */
function modelClient(answer: () => LlmResponse | LlmError): LlmClient & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    route: resolveModelRoute('openai/gpt-4o'),
    requests,
    complete: async (request) => {
      requests.push(request);
      const outcome = answer();
      if (outcome instanceof LlmError) throw outcome;
      return outcome;
    },
  };
}

function conversation(calls: number, condensations: ((events: ReturnType<typeof memoryLog>) => void)[] = []) {
  const log = memoryLog();
  startConversation(log.append);
  bashCalls(log.append, calls);
  for (const condense of condensations) condense(log);
  return log;
}

function input(
  log: ReturnType<typeof memoryLog>,
  llm: LlmClient,
  overrides: Partial<CondenseInput> = {},
): CondenseInput {
  return {
    view: condensedView(log.events),
    contextWindow: 100_000,
    estimatedPromptTokens: 1_000,
    requested: false,
    enabled: true,
    llm,
    ...overrides,
  };
}

const overflow = () => new LlmError('context_overflow', 'too long', { statusId: null });

describe('Condenser', () => {
  it('runs the window on a request, without a model call, carrying the previous summary', async () => {
    const llm = modelClient(() => reply('unused'));
    const log = conversation(8, [
      (l) =>
        l.append({
          source: 'agent',
          message: '',
          action: 'condensation',
          args: {
            forgotten_events_start_id: 5,
            forgotten_events_end_id: 6,
            summary: 'earlier work',
            summary_offset: 3,
          },
        }),
    ]);
    // view: 1, 3, 4, summary, 7-20; the newest 7 are 14-20, and 14 is the result of 13, which goes.
    const outcome = await new Condenser().maybeCondense(input(log, llm, { requested: true, enabled: false }));
    expect(llm.requests).toEqual([]);
    expect(outcome).toEqual({
      summaryCall: null,
      condensation: expect.objectContaining({
        action: 'condensation',
        args: {
          forgotten_event_ids: null,
          forgotten_events_start_id: 7,
          forgotten_events_end_id: 14,
          summary: 'earlier work',
          summary_offset: 3,
        },
      }) as NewEvent,
    });
  });

  it('does not summarize when disabled or below the trigger', async () => {
    const llm = modelClient(() => reply('unused'));
    const log = conversation(61); // 3 + 122 events in view
    expect(await new Condenser().maybeCondense(input(log, llm, { enabled: false }))).toBeNull();
    expect(await new Condenser({ maxSize: 130 }).maybeCondense(input(log, llm))).toBeNull();
    expect(llm.requests).toEqual([]);
  });

  it('summarizes all but the first 4 and last 55 events above 120 events in view', async () => {
    const llm = modelClient(() => reply('  USER_CONTEXT: make the tests pass  '));
    const log = conversation(61);
    const view = condensedView(log.events);
    const outcome = await new Condenser().maybeCondense(input(log, llm));
    // The 4th event (call 1's action) goes with its result; the first kept of the last 55 is a result,
    // so its action's pair goes as well.
    const forgotten = view.slice(3, -54);
    expect(forgotten[0]?.id).toBe(5);
    expect(outcome?.condensation.args).toEqual({
      forgotten_event_ids: null,
      forgotten_events_start_id: 5,
      forgotten_events_end_id: forgotten.at(-1)?.id,
      summary: 'USER_CONTEXT: make the tests pass',
      summary_offset: 3,
    });
    expect(outcome?.summaryCall?.responseId).toBe('summary-1');
    const request = llm.requests[0] as LlmRequest;
    expect(request.system.startsWith(CONDENSER_MARKER)).toBe(true);
    const text = String(request.messages[0]?.content);
    for (const event of forgotten) expect(text).toContain(`<EVENT id=${event.id} `);
    expect(text).not.toContain(`<EVENT id=${view.at(-54)?.id} `);
    expect(text).not.toContain('<EVENT id=4 ');
  });

  it('summarizes when the prompt passes 80% of the context window, if anything is left to summarize', async () => {
    const llm = modelClient(() => reply('summary'));
    const tokens = { estimatedPromptTokens: 26_300, contextWindow: 32_768 };
    expect(await new Condenser().maybeCondense(input(conversation(28), llm, tokens))).toBeNull();
    expect(llm.requests).toHaveLength(0);
    const outcome = await new Condenser().maybeCondense(input(conversation(40), llm, tokens));
    expect(outcome?.condensation.args).toMatchObject({ summary: 'summary', summary_offset: 3 });
    expect(llm.requests).toHaveLength(1);
  });

  it('runs the window with the fallback text when the summary call overflows', async () => {
    const log = conversation(61);
    const outcome = await new Condenser().maybeCondense(input(log, modelClient(overflow)));
    // 122 call events: the newest 61 stay, and the first of them is a result whose action goes.
    expect(outcome).toEqual({
      summaryCall: null,
      condensation: expect.objectContaining({
        args: expect.objectContaining({
          forgotten_events_start_id: 5,
          summary: SUMMARY_OVERFLOW_TEXT,
          summary_offset: 3,
        }),
      }) as NewEvent,
    });
    if (outcome) log.append(outcome.condensation);
    const view = condensedView(log.events);
    expect(view).toHaveLength(3 + 1 + 60);
    expect(view[3]).toMatchObject({ observation: 'condense', content: SUMMARY_OVERFLOW_TEXT });
  });

  it('passes other model failures on', async () => {
    const failure = new LlmError('auth', 'bad key', { statusId: 'STATUS$ERROR_LLM_AUTHENTICATION' });
    await expect(
      new Condenser().maybeCondense(
        input(
          conversation(61),
          modelClient(() => failure),
        ),
      ),
    ).rejects.toBe(failure);
  });
});
