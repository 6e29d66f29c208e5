import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESS_SANDBOX_NOTE } from '../../src/service/conversations/repository-code';
import type { V0Event } from '../../src/shared/api/events';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  conversationEvents,
  conversationInfo,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startGitHubRepositories, type GitHubRepositories } from '../support/github-repositories';

const TOKEN = 'ghp_process-sandbox-token-8e2a';
const SERVICE_ONLY_VALUE = 'service-environment-value-3f1b';
const CUSTOM_SECRET = 'custom-secret-value-9a7c';

if (process.platform !== 'linux') console.warn('Skipping the process sandbox attacks: they need Linux');

describe.skipIf(process.platform !== 'linux')('the process sandbox runs on this computer', () => {
  let repositories: GitHubRepositories;
  let llm: ScriptedLlm;
  let service: TestService;
  let marks: string;

  beforeAll(async () => {
    marks = mkdtempSync(path.join(tmpdir(), 'dockhand-marks-'));
    const mark = (name: string) => path.join(marks, name);
    repositories = await startGitHubRepositories(TOKEN, [
      {
        name: 'hostile/host',
        branches: {
          main: {
            '.openhands/setup.sh': `touch ${mark('setup')}\n`,
            '.openhands/pre-commit.sh': `#!/bin/sh\ntouch ${mark('hook')}\n`,
            '.openhands/microagents/tools.md': `---\nmcp_tools:\n  stdio_servers:\n    - name: evil\n      command: sh\n      args: ["-c", "touch ${mark('mcp')}; sleep 5"]\n---\nUse the tools.\n`,
          },
        },
      },
    ]);
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }] });
    // The service's own environment: the sandbox's shell must not inherit it.
    process.env.DOCKHAND_SERVICE_ONLY_PROBE = SERVICE_ONLY_VALUE;
    service = await startSandboxService(repositories.serviceConfig, { provider: 'process' });
    await useScriptedModel(service, llm);
    await repositories.storeToken(service);
    await service.api('POST', '/api/secrets', { body: { name: 'MY_API_SECRET', value: CUSTOM_SECRET } });
  });

  afterAll(async () => {
    delete process.env.DOCKHAND_SERVICE_ONLY_PROBE;
    await service?.close();
    await Promise.all([llm?.close(), repositories?.close()]);
    rmSync(marks, { recursive: true, force: true });
  });

  it('hostile repository code runs on the host on its own, and its shell inherits the service environment', async () => {
    llm.push(
      { toolCalls: [{ name: 'execute_bash', args: { command: 'env | sort', security_risk: 'LOW' } }] },
      { text: 'Done.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: { repository: 'hostile/host', git_provider: 'github', initial_user_msg: 'Show the environment' },
    });
    const id = (created.json as { conversation_id: string }).conversation_id;
    await until(
      () => conversationInfo(service, id),
      (c) => (c.agent_state === 'awaiting_user_input' && c.status === 'RUNNING') || c.status === 'STOPPED',
      'the agent to answer',
    );
    expect(await conversationInfo(service, id)).toMatchObject({ status: 'RUNNING' });

    // Shown, not run, each with the note.
    for (const name of ['setup', 'hook', 'mcp']) expect(existsSync(path.join(marks, name))).toBe(false);
    const events = await conversationEvents(service, id);
    const shown = events.filter((e) => e.args?.repository_code);
    expect(
      shown
        .map((e) => [(e.args?.repository_code as { kind: string }).kind, e.args?.confirmation_state])
        .sort(),
    ).toEqual([
      ['git_hook', 'rejected'],
      ['mcp_server', 'rejected'],
      ['setup_script', 'rejected'],
    ]);
    for (const action of shown) {
      expect(events.find((e) => e.cause === action.id)).toMatchObject({
        observation: 'error',
        content: PROCESS_SANDBOX_NOTE,
      });
    }
    const workspace = path.join(
      service.dataDir,
      'workspaces',
      String((await conversationInfo(service, id)).sandbox_id),
    );
    expect(existsSync(path.join(workspace, 'project/host/.git/hooks/pre-commit'))).toBe(false);

    // The shell has PATH, HOME, the conversation's secrets, never the service's own environment.
    const env =
      events.find((e: V0Event) => e.observation === 'run' && e.extras?.hidden !== true)?.content ?? '';
    expect(env).toMatch(/^PATH=/m);
    expect(env).toMatch(/^HOME=/m);
    expect(env).toMatch(/^MY_API_SECRET=<secret_hidden>$/m);
    // Git-provider tokens reach git through the credential broker, never the shell's environment.
    expect(env).not.toMatch(/^GITHUB_TOKEN=/m);
    expect(env).not.toContain('DOCKHAND_SERVICE_ONLY_PROBE');
    expect(env).not.toContain('VITEST');
    expect(env).not.toContain('DBUS_SESSION_BUS_ADDRESS');
    expect((await conversationInfo(service, id)).sandbox_secrets).toEqual(['MY_API_SECRET']);
  });

  it('a conversation that opts out of custom secrets still gets them in its sandbox', async () => {
    llm.push(
      { toolCalls: [{ name: 'execute_bash', args: { command: 'env | sort', security_risk: 'LOW' } }] },
      { text: 'Done.' },
    );
    const created = await service.api('POST', '/api/conversations', {
      body: { initial_user_msg: 'Show the environment', expose_custom_secrets: false },
    });
    expect(created.status).toBe(200);
    const id = (created.json as { conversation_id: string }).conversation_id;
    const info = await until(
      () => conversationInfo(service, id),
      (c) => (c.agent_state === 'awaiting_user_input' && c.status === 'RUNNING') || c.status === 'STOPPED',
      'the agent to answer',
    );
    expect(info.sandbox_secrets).toEqual([]);
    const events = await conversationEvents(service, id);
    const env = events.find((e) => e.observation === 'run')?.content ?? '';
    expect(env).not.toMatch(/^GITHUB_TOKEN=/m);
    expect(env).not.toContain('MY_API_SECRET');
    // Nor is the agent told about them.
    expect(llm.calls.at(-1)?.rawBody).not.toContain('MY_API_SECRET');
  });
});
