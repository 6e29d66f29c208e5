import Docker from 'dockerode';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { retryDifferentlyText } from '../../src/service/agent/loop-recovery';
import { PriceTable } from '../../src/service/agent/llm/prices';
import { STUCK_REASON } from '../../src/service/agent/stuck-detector';
import { dockerExec } from '../../src/service/sandbox/docker/docker-exec';
import { completedSuffix, noChangeSuffix, STOPPED_SUFFIX } from '../../src/service/sandbox/shell/messages';
import { dockerUnavailableReason } from '../support/test-sandboxes';
import { AgentHarness, observationsOf } from '../support/agent-harness';

const docker = new Docker();
const unavailable = await dockerUnavailableReason(docker);
if (unavailable) console.warn(`Skipping the agent scenario tests: ${unavailable}`);

const bash = (command: string, extra: Record<string, unknown> = {}) => ({
  toolCalls: [{ name: 'execute_bash', args: { command, security_risk: 'LOW', ...extra } }],
});

/** The required scenarios of agent-behaviour §10 that the loop tests do not already cover. */
describe.skipIf(unavailable !== null)('agent scenarios against a Docker sandbox and a scripted LLM', () => {
  const harness = new AgentHarness(docker, 'agent-scenarios');

  beforeAll(() => harness.setUp());
  afterAll(() => harness.tearDown());
  afterEach(() => harness.closeLlm());

  it.each(['openai', 'anthropic'] as const)(
    'waits out a silent command, then C-c ends it with exit 130 (%s)',
    async (api) => {
      const { loop, log } = await harness.agent(
        [bash('sleep 1000'), bash('C-c', { is_input: true }), { text: 'interrupted' }],
        { api },
      );
      loop.start({ content: 'sleep, then interrupt' });
      await loop.settled();
      const [waited, interrupted] = observationsOf(log(), 'run');
      expect(waited?.content?.startsWith(noChangeSuffix(2))).toBe(true);
      expect(waited?.extras).toMatchObject({ metadata: { exit_code: -1 } });
      expect(interrupted?.content).toContain(completedSuffix(130, 'CTRL+C'));
      expect(interrupted?.extras).toMatchObject({ metadata: { exit_code: 130 } });
      expect(loop.state).toBe('awaiting_user_input');
    },
  );

  it.each([
    ['a forced push', bash('git push --force origin main'), true],
    [
      'a write to /etc',
      {
        toolCalls: [
          {
            name: 'str_replace_editor',
            args: { command: 'create', path: '/etc/x', file_text: 'x', security_risk: 'LOW' },
          },
        ],
      },
      true,
    ],
    [
      'a workspace edit',
      {
        toolCalls: [
          {
            name: 'str_replace_editor',
            args: {
              command: 'create',
              path: '/workspace/project/analyzed.txt',
              file_text: 'x',
              security_risk: 'LOW',
            },
          },
        ],
      },
      false,
    ],
  ])('the rules analyzer asks about %s only when it is risky', async (_name, step, asks) => {
    const { loop } = await harness.agent([step, { text: 'done' }], {
      confirmationMode: true,
      analyzer: 'rules',
    });
    loop.start({ content: 'go' });
    await loop.settled();
    expect(loop.state).toBe(asks ? 'awaiting_user_confirmation' : 'awaiting_user_input');
    if (asks) await loop.changeState('user_rejected');
  });

  it('stops at the budget with the exact text and extends it after a user message', async () => {
    const think = {
      toolCalls: [{ name: 'think', args: { thought: 'costly' } }],
      usage: { input: 1000, output: 0 },
    };
    const { loop, log, llm } = await harness.agent([think, think, { text: 'continuing' }], {
      maxBudgetPerTask: 1.5,
      prices: new PriceTable({ 'openai/gpt-4o': { input: 1000, output: 0, cacheRead: 0, cacheWrite: 0 } }),
    });
    loop.start({ content: 'spend' });
    await loop.settled();
    expect(loop.state).toBe('error');
    expect(log().findLast((e) => e.observation === 'agent_state_changed')?.extras).toMatchObject({
      reason: 'Agent reached maximum budget for conversation. Current budget: 2.00, max budget: 1.50',
    });
    expect(llm.calls).toHaveLength(2);
    loop.sendMessage('spend a little more');
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_input');
    expect(llm.calls).toHaveLength(3);
  });

  it('warns once that a budget cannot be enforced for a model without a price', async () => {
    const { loop, statuses } = await harness.agent(
      [{ toolCalls: [{ name: 'think', args: { thought: 'free?' } }] }, { text: 'hello' }],
      { model: 'unpriced-test-model', remote: true, maxBudgetPerTask: 1 },
    );
    loop.start({ content: 'hi' });
    await loop.settled();
    expect(statuses.filter((s) => s.id === 'STATUS$BUDGET_NOT_ENFORCED')).toEqual([
      {
        type: 'info',
        id: 'STATUS$BUDGET_NOT_ENFORCED',
        message: 'Budget not enforced: no price known for openai/unpriced-test-model',
      },
    ]);
    expect(loop.state).toBe('awaiting_user_input');
  });

  it('detects a repeated command, then "Retry differently" forgets the loop and runs again', async () => {
    const same = bash('echo same');
    const { loop, log, llm } = await harness.agent([same, same, same, same, { text: 'A different way.' }]);
    loop.start({ content: 'repeat yourself' });
    await loop.settled();
    expect(loop.state).toBe('error');
    const detection = observationsOf(log(), 'loop_detection')[0];
    expect(detection?.extras).toMatchObject({ pattern: 1, hidden: true });
    expect(log().findLast((e) => e.observation === 'agent_state_changed')?.extras).toMatchObject({
      reason: STUCK_REASON,
    });
    expect(llm.calls).toHaveLength(4);

    await loop.changeState('running');
    await loop.settled();
    expect(loop.state).toBe('awaiting_user_input');
    const retried = JSON.stringify(llm.calls[4]?.body);
    expect(retried).toContain(retryDifferentlyText(4));
    expect(retried).not.toContain('echo same');
    expect(log().some((e) => e.action === 'condensation')).toBe(true);
  });

  it('Stop during a long command leaves no process of it in the container', async () => {
    const { loop, log } = await harness.agent([bash('sleep 4242', { timeout: 600 })]);
    loop.start({ content: 'sleep long' });
    const running = async () =>
      (await dockerExec(harness.container, ['pgrep', '-f', 'sleep 4242'])).stdout.trim();
    while (!(await running())) await new Promise((resolve) => setTimeout(resolve, 100));
    await loop.stop();
    await loop.settled();
    expect(loop.state).toBe('stopped');
    expect(await running()).toBe('');
    const [interrupted] = observationsOf(log(), 'run');
    expect(interrupted?.content).toContain(STOPPED_SUFFIX);
    expect(interrupted?.extras).toMatchObject({ metadata: { exit_code: expect.any(Number) } });
    expect([130, 137]).toContain(
      (interrupted?.extras as { metadata: { exit_code: number } }).metadata.exit_code,
    );
  });
});
