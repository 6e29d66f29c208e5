import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESTART_INTERRUPTED } from '../../src/service/agent/interrupted-actions';
import type { V0Event } from '../../src/shared/api/events';
import { openDatabase } from '../../src/service/storage/database';
import { cliEnv, ensureCliBuilt, startServe, type RunningCli } from '../support/cli';
import { freePort } from '../support/ports';
import { startScriptedLlm, type RecordedLlmRequest, type ScriptedLlm } from '../support/scripted-llm';
import { rawRequest, tempDataDir } from '../support/service';
import { until } from '../support/until';
import { docker, dockerSkipReason, execIn, removeLabelled, TEST_IMAGE } from '../sandbox/support';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the service restart test: ${skip}`);

const WORK_DIR = '/workspace/project/sub';

function bash(id: string, command: string) {
  return { toolCalls: [{ id, name: 'execute_bash', args: { command, security_risk: 'LOW' } }] };
}

/** The `tool` results the model was sent. */
function toolResults(request: RecordedLlmRequest): string[] {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
}

describe.skipIf(skip !== null)(
  'a service killed mid-command and started again on the same data folder',
  () => {
    let llm: ScriptedLlm;
    let dataDir: string;
    let cli: RunningCli | null = null;
    const env = cliEnv({
      DOCKHAND_SECRETS: 'file',
      DOCKHAND_SANDBOX_IMAGE: TEST_IMAGE,
      DOCKHAND_SANDBOX_NETWORK: 'none',
      DOCKHAND_SANDBOX_IDLE_PAUSE_S: '0',
    });

    const serve = async () => {
      cli = await startServe(['--data-dir', dataDir, '--port', String(await freePort())], env);
      return cli;
    };
    const api = (method: string, path: string, body?: unknown) => {
      const running = cli as RunningCli;
      return rawRequest(running.port, method, path, { key: running.key, ...(body ? { body } : {}) });
    };
    const info = async (id: string) =>
      (await api('GET', `/api/conversations/${id}`)).json as Record<string, unknown>;
    /** Every test saves the settings it runs with: the data folder, and so the settings, are shared. */
    const useScriptedModel = (extra: Record<string, unknown>) =>
      api('POST', '/api/settings', {
        llm_model: 'openai/gpt-4o',
        llm_api_key: 'sk-test',
        llm_base_url: llm.baseUrl,
        ...extra,
      });
    const eventsOf = async (id: string) =>
      ((await api('GET', `/api/conversations/${id}/events?limit=100`)).json as { events: V0Event[] }).events;

    beforeAll(async () => {
      ensureCliBuilt();
      llm = await startScriptedLlm([], {
        channels: [{ marker: '[dockhand:title]', step: { text: 'Restart title' } }],
      });
      dataDir = tempDataDir();
    });

    afterAll(async () => {
      await cli?.stop('SIGKILL');
      const db = openDatabase(dataDir);
      const row = db.prepare("SELECT value FROM service_meta WHERE key = 'instance_id'").get() as
        { value: string } | undefined;
      db.close();
      if (row) await removeLabelled(`dev.dockhand.instance=${row.value}`);
      rmSync(dataDir, { recursive: true, force: true });
      await llm?.close();
    });

    it('lists the conversation with its history, reattaches its sandbox and resumes a paused agent', async () => {
      llm.push(
        bash('call_setup', `mkdir -p ${WORK_DIR} && cd ${WORK_DIR} && echo kept > file.txt && export GONE=1`),
        bash('call_sleep', 'sleep 30'),
      );
      await serve();
      await useScriptedModel({ confirmation_mode: false });
      const created = await api('POST', '/api/conversations', { initial_user_msg: 'set up, then wait' });
      expect(created.status).toBe(200);
      const id = (created.json as { conversation_id: string }).conversation_id;
      const sleeping = await until(
        () => eventsOf(id),
        (events) => events.some((e) => e.action === 'run' && e.args?.command === 'sleep 30'),
        'the agent to start sleep 30',
      );
      const sleepAction = sleeping.find(
        (e) => e.action === 'run' && e.args?.command === 'sleep 30',
      ) as V0Event;
      const sandboxId = (await info(id)).sandbox_id as string;
      const containerId = (await docker.getContainer(`dockhand-${sandboxId}`).inspect()).Id;
      // Let the command get going in the shell before the service dies under it.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      await (cli as RunningCli).stop('SIGKILL');

      await serve();
      const listed = (await api('GET', '/api/conversations')).json as { results: Record<string, unknown>[] };
      // Every conversation comes back STOPPED (the other test's too, when it ran first).
      expect(listed.results.map((c) => [c.conversation_id, c.status])).toContainEqual([id, 'STOPPED']);
      expect(listed.results.every((c) => c.status === 'STOPPED')).toBe(true);
      const history = await eventsOf(id);
      expect(history.map((e) => e.id)).toEqual(sleeping.map((e) => e.id));
      expect(history).toEqual(sleeping);

      expect((await api('POST', `/api/conversations/${id}/start`, {})).status).toBe(200);
      const resumed = await until(
        () => info(id),
        (c) => c.status === 'RUNNING' && c.agent_state === 'paused',
        'the conversation to come back paused',
      );
      expect(resumed.sandbox_id).toBe(sandboxId);
      expect((await docker.getContainer(`dockhand-${sandboxId}`).inspect()).Id).toBe(containerId);
      expect((await execIn(sandboxId, `cat ${WORK_DIR}/file.txt`)).stdout).toBe('kept\n');
      const after = await eventsOf(id);
      const answer = after.find((e) => e.cause === sleepAction.id);
      expect(answer).toMatchObject({
        observation: 'error',
        content: RESTART_INTERRUPTED,
        tool_call_metadata: { tool_call_id: 'call_sleep' },
      });
      expect(after.filter((e) => e.action === 'system')).toHaveLength(1);

      let seenByModel: string[] = [];
      llm.push(
        (request) => {
          seenByModel = toolResults(request);
          return bash('call_pwd', 'pwd; echo "GONE=${GONE:-unset}"');
        },
        { text: 'Back at work.' },
      );
      expect(
        (
          await api('POST', `/api/conversations/${id}/events`, {
            action: 'message',
            args: { content: 'go on' },
          })
        ).status,
      ).toBe(200);
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_input',
        'the resumed agent to answer',
      );
      expect(seenByModel.at(-1)).toBe(`${RESTART_INTERRUPTED}\n[Error occurred in processing last action]`);
      const pwd = (await eventsOf(id)).find(
        (e) => e.observation === 'run' && e.tool_call_metadata?.tool_call_id === 'call_pwd',
      );
      expect(pwd?.content).toMatch(
        new RegExp(
          `^\\[The shell was restarted; exported variables and jobs are gone\\. Working directory: ${WORK_DIR}\\]\\n${WORK_DIR}\\nGONE=unset\\n`,
        ),
      );
      await (cli as RunningCli).stop('SIGTERM');
      cli = null;
    });

    it('keeps a pending confirmation across a restart, and runs the action once it is confirmed', async () => {
      llm.push(bash('call_risky', 'sudo touch /opt/confirmed-after-restart'), {
        text: 'Confirmed and done.',
      });
      await serve();
      await useScriptedModel({ confirmation_mode: true, security_analyzer: 'rules' });
      const created = await api('POST', '/api/conversations', { initial_user_msg: 'touch it' });
      const id = (created.json as { conversation_id: string }).conversation_id;
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_confirmation',
        'the agent to ask for confirmation',
      );
      await (cli as RunningCli).stop('SIGKILL');

      await serve();
      expect((await api('POST', `/api/conversations/${id}/start`, {})).status).toBe(200);
      const back = await until(
        () => info(id),
        (c) => c.status === 'RUNNING' && c.agent_state !== 'loading' && c.agent_state !== null,
        'the conversation to come back',
      );
      expect(back.agent_state).toBe('awaiting_user_confirmation');
      const confirmed = await api('POST', `/api/conversations/${id}/events`, {
        action: 'change_agent_state',
        args: { agent_state: 'user_confirmed' },
      });
      expect(confirmed.status).toBe(200);
      await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_input',
        'the confirmed action to run',
      );
      const sandboxId = back.sandbox_id as string;
      expect((await execIn(sandboxId, 'ls /opt/confirmed-after-restart')).stdout).toBe(
        '/opt/confirmed-after-restart\n',
      );
      const runs = (await eventsOf(id)).filter((e) => e.action === 'run');
      expect(runs.map((e) => e.args?.confirmation_state)).toEqual(['awaiting_confirmation', 'confirmed']);
      await (cli as RunningCli).stop('SIGTERM');
      cli = null;
    });
  },
);
