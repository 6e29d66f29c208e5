import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  closeSandboxService,
  conversationEvents,
  conversationInfo,
  dockerSkipReason,
  execIn,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../support/github-repositories';

const skip = await dockerSkipReason();
if (skip) console.warn(`Skipping the setup script and git hook tests: ${skip}`);

const SETUP = `echo "setup ran"
export SETUP_VALUE=from-setup
echo run >> /tmp/setup-runs
`;
const PRE_COMMIT = '#!/bin/sh\necho "pre-commit script" >> /tmp/hook-log\n';
const FOREIGN_HOOK = '#!/bin/sh\necho foreign >> /tmp/hook-log\n';
// The child ignores SIGINT, so only the kill of the foreground process group ends it.
const SLOW_SETUP = `echo "slow start"\nbash -c 'trap "" INT; sleep 300'\n`;
const BROKEN_SETUP = 'echo "broken setup"\nfalse\n';
const REPOSITORIES = {
  'acme/tools': { '.openhands/setup.sh': SETUP, '.openhands/pre-commit.sh': PRE_COMMIT, 'README.md': 'x\n' },
  'acme/slow': { '.openhands/setup.sh': SLOW_SETUP },
  'acme/broken': { '.openhands/setup.sh': BROKEN_SETUP },
};
const TIMEOUT_S = '2';
const TOKEN = 'ghp_setup-hooks-token-7d1e';

// The restart case goes on with the conversation of the case before it, so the cases keep their order.
describe.skipIf(skip !== null)(
  '.openhands/setup.sh and the pre-commit hook in a Docker sandbox',
  { shuffle: false },
  () => {
    let repositories: GitHubRepositories;
    let llm: ScriptedLlm;
    let service: TestService;
    const previousTimeout = process.env.DOCKHAND_SETUP_TIMEOUT_S;

    beforeAll(async () => {
      process.env.DOCKHAND_SETUP_TIMEOUT_S = TIMEOUT_S;
      repositories = await startGitHubRepositories(
        TOKEN,
        Object.entries(REPOSITORIES).map(([name, files]) => ({ name, branches: { main: files } })),
      );
      llm = await startScriptedLlm([], {
        channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }],
      });
      service = await startSandboxService(repositories.serviceConfig, { network: 'host' });
      await useScriptedModel(service, llm);
      await repositories.storeToken(service);
    });

    afterAll(async () => {
      if (previousTimeout === undefined) delete process.env.DOCKHAND_SETUP_TIMEOUT_S;
      else process.env.DOCKHAND_SETUP_TIMEOUT_S = previousTimeout;
      await closeSandboxService(service);
      await Promise.all([llm?.close(), repositories?.close()]);
    });

    const info = (id: string) => conversationInfo(service, id);
    const eventsOf = (id: string) => conversationEvents(service, id);
    const startOn = async (repository: string, message: string) => {
      const created = await service.api('POST', '/api/conversations', {
        body: { repository, git_provider: 'github', initial_user_msg: message },
      });
      expect(created.status).toBe(200);
      const id = (created.json as { conversation_id: string }).conversation_id;
      const settled = await until(
        () => info(id),
        (c) => c.agent_state === 'awaiting_user_input' || c.status === 'STOPPED',
        'the agent to answer',
      );
      expect(settled.status).toBe('RUNNING');
      return { id, sandboxId: settled.sandbox_id as string };
    };

    it('sources setup.sh in the agent shell as a hidden action and wraps the pre-commit script', async () => {
      llm.push(
        {
          toolCalls: [
            { name: 'execute_bash', args: { command: 'echo "value=$SETUP_VALUE"', security_risk: 'LOW' } },
          ],
        },
        {
          toolCalls: [
            {
              name: 'execute_bash',
              args: {
                command: 'git commit -q --allow-empty -m agent && cat /tmp/hook-log',
                security_risk: 'LOW',
              },
            },
          ],
        },
        { text: 'Checked.' },
      );
      const callsBefore = llm.calls.length;
      const { id, sandboxId } = await startOn('acme/tools', 'Check the setup');
      const events = await eventsOf(id);

      const hidden = events.filter((e) => e.args?.hidden === true || e.extras?.hidden === true);
      // Shown to the user as repository code (confirmation mode is off, so it runs): the script, then the hook.
      expect(hidden).toHaveLength(4);
      expect(hidden[0]).toMatchObject({
        source: 'environment',
        action: 'run',
        args: {
          blocking: true,
          confirmation_state: 'confirmed',
          repository_code: { kind: 'setup_script', name: '.openhands/setup.sh', content: SETUP },
        },
      });
      expect(String(hidden[0]?.args?.command)).toContain(
        "source '/workspace/project/tools/.openhands/setup.sh' > /tmp/dockhand/setup.log 2>&1",
      );
      expect(hidden[1]).toMatchObject({ observation: 'run', cause: hidden[0]?.id, success: true });
      expect(hidden[2]).toMatchObject({
        args: {
          repository_code: { kind: 'git_hook', name: '.openhands/pre-commit.sh', content: PRE_COMMIT },
        },
      });
      expect(hidden[3]).toMatchObject({ observation: 'run', cause: hidden[2]?.id });
      const runs = events.filter((e) => e.observation === 'run' && e.extras?.hidden !== true);
      expect(runs[0]?.content).toMatch(/^value=from-setup\n/);
      expect(runs[1]?.content).toMatch(/^pre-commit script\n/);
      expect(llm.calls.slice(callsBefore).some((call) => call.rawBody.includes('setup.sh'))).toBe(false);
      const trajectory = (await service.api('GET', `/api/conversations/${id}/trajectory`)).json as {
        trajectory: V0Event[];
      };
      expect(JSON.stringify(trajectory)).not.toContain('setup.sh');
      expect((await execIn(sandboxId, 'cat /tmp/dockhand/setup.log')).stdout).toBe('setup ran\n');
      expect(
        (await execIn(sandboxId, 'cat /workspace/project/tools/.git/hooks/pre-commit')).stdout,
      ).toContain('# dockhand-pre-commit-wrapper');
    });

    it('on a restart keeps a finished setup and moves a foreign hook to pre-commit.local, run first', async () => {
      const created = await service.api('GET', '/api/conversations?selected_repository=acme/tools');
      const [conversation] = (created.json as { results: { conversation_id: string; sandbox_id: string }[] })
        .results;
      const id = conversation?.conversation_id as string;
      const sandboxId = conversation?.sandbox_id as string;
      await service.api('POST', `/api/conversations/${id}/stop`);
      const hooks = '/workspace/project/tools/.git/hooks';
      await execIn(
        sandboxId,
        `printf '%s' '${FOREIGN_HOOK}' > ${hooks}/pre-commit && chmod 755 ${hooks}/pre-commit && rm /tmp/hook-log`,
      );

      expect((await service.api('POST', `/api/conversations/${id}/start`, { body: {} })).status).toBe(200);
      await until(
        () => info(id),
        (c) => c.status === 'RUNNING' || c.status === 'STOPPED',
        'the restart',
      );
      expect(await info(id)).toMatchObject({ status: 'RUNNING', runtime_status: 'STATUS$READY' });
      expect((await execIn(sandboxId, 'cat /tmp/setup-runs')).stdout).toBe('run\n');
      expect((await execIn(sandboxId, `cat ${hooks}/pre-commit.local`)).stdout).toBe(FOREIGN_HOOK);
      const commit = await execIn(
        sandboxId,
        'cd /workspace/project/tools && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m again && cat /tmp/hook-log',
      );
      expect(commit.stdout).toBe('foreign\npre-commit script\n');
      // The setup already ran; the foreign hook took the wrapper's place, so installing it again is shown.
      const hidden = (await eventsOf(id)).filter((e) => e.args?.hidden === true);
      expect(hidden.map((e) => (e.args?.repository_code as { kind: string }).kind)).toEqual([
        'setup_script',
        'git_hook',
        'git_hook',
      ]);
    });

    it('stops a setup.sh that outlives its time limit, killing its process group, and tells the agent', async () => {
      llm.push({ text: 'Noted.' });
      const callsBefore = llm.calls.length;
      const { id, sandboxId } = await startOn('acme/slow', 'Hello');
      const note = `.openhands/setup.sh did not finish within ${TIMEOUT_S} s and was stopped; see /tmp/dockhand/setup.log.`;
      const events = await eventsOf(id);
      expect(events.find((e) => e.observation === 'run' && e.extras?.hidden === true)).toMatchObject({
        success: false,
      });
      const recall = events.find((e) => e.observation === 'recall');
      expect(recall?.extras?.additional_agent_instructions).toBe(note);
      expect(llm.calls.slice(callsBefore).some((call) => call.rawBody.includes(note))).toBe(true);
      const left = await execIn(
        sandboxId,
        "for f in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < $f; echo; done | grep -c 'sleep 30[0]' || true",
      );
      expect(left.stdout.trim()).toBe('0');
      // bash reports the child killed with its process group.
      expect((await execIn(sandboxId, 'cat /tmp/dockhand/setup.log')).stdout).toBe('slow start\nKilled\n');
    });

    it('reports a failing setup.sh with its exit code, and the conversation still starts', async () => {
      llm.push({ text: 'Noted.' });
      const { id } = await startOn('acme/broken', 'Hello');
      const recall = (await eventsOf(id)).find((e) => e.observation === 'recall');
      expect(recall?.extras?.additional_agent_instructions).toBe(
        '.openhands/setup.sh failed with exit code 1; see /tmp/dockhand/setup.log.',
      );
      expect(await info(id)).toMatchObject({ status: 'RUNNING', runtime_status: 'STATUS$READY' });
    });
  },
);
