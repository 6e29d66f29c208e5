import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedLlm, type ScriptedLlm } from '../support/scripted-llm';
import type { TestService } from '../support/service';
import { until } from '../support/until';
import {
  conversationEvents,
  createConversation,
  startSandboxService,
  useScriptedModel,
} from '../sandbox/support';
import { startFakeGitProviders, type FakeGitProviders } from '../support/fake-git-providers';
import { startGitHttpServer, type GitHttpServer } from '../support/git-http-server';

const GITHUB = 'ghp_clone-scope-github-3a9e';
const GITLAB = 'glpat-clone-scope-gitlab-6c2f';

if (process.platform !== 'linux')
  console.warn('Skipping the clone token attack: the process sandbox needs Linux');

describe.skipIf(process.platform !== 'linux')('the clone’s credentials', () => {
  let git: GitHttpServer;
  let providers: FakeGitProviders;
  let llm: ScriptedLlm;
  let service: TestService;

  beforeAll(async () => {
    git = await startGitHttpServer({
      token: GITHUB,
      repositories: [{ name: 'acme/private', private: true, branches: { main: { 'README.md': 'x\n' } } }],
    });
    providers = await startFakeGitProviders({ github: GITHUB, gitlab: GITLAB }, [
      { provider: 'github', path: 'acme/private', private: true },
    ]);
    llm = await startScriptedLlm([], { channels: [{ marker: '[dockhand:title]', step: { text: 'Title' } }] });
    service = await startSandboxService(
      { providerApiBase: (provider) => providers.apiBase(provider, 'github.com'), gitScheme: 'http' },
      { provider: 'process' },
    );
    await useScriptedModel(service, llm);
    // Both providers' tokens point at the same git host: only the repository's provider's may be used.
    const stored = await service.api('POST', '/api/add-git-providers', {
      body: {
        provider_tokens: {
          github: { token: GITHUB, host: git.host },
          gitlab: { token: GITLAB, host: git.host },
        },
      },
    });
    expect(stored.status).toBe(200);
  });

  afterAll(async () => {
    await service?.close();
    await Promise.all([llm?.close(), git?.close(), providers?.close()]);
  });

  it('a clone presents another provider’s token or keeps a token in the repository', async () => {
    llm.push({ text: 'Cloned.' });
    const { info } = await createConversation(service, {
      repository: 'acme/private',
      git_provider: 'github',
      initial_user_msg: 'Clone it',
    });
    expect(info.status).toBe('RUNNING');
    expect(git.authenticatedUsers.length).toBeGreaterThan(0);
    expect(new Set(git.authenticatedUsers)).toEqual(new Set(['x-access-token']));
    const repository = path.join(service.dataDir, 'workspaces', String(info.sandbox_id), 'project/private');
    const config = readFileSync(path.join(repository, '.git/config'), 'utf8');
    expect(config).not.toContain(GITHUB);
    expect(config).not.toContain(GITLAB);
    expect(config).toContain(`url = http://${git.host}/acme/private.git`);
  });

  it('the shell’s environment holds a provider token, or git hands it to another host', async () => {
    llm.push({ text: 'Cloned.' });
    const { id, info } = await createConversation(service, {
      repository: 'acme/private',
      git_provider: 'github',
      initial_user_msg: 'Clone it',
    });
    expect(info.status).toBe('RUNNING');
    expect(info.sandbox_secrets).toEqual([]);
    const workspace = path.join(service.dataDir, 'workspaces', String(info.sandbox_id));
    const fill = (host: string, out: string) =>
      `printf 'protocol=http\\nhost=${host}\\n\\n' | git -C project/private credential fill > ${out} 2>&1`;
    llm.push(
      {
        toolCalls: [
          {
            name: 'execute_bash',
            args: {
              command: [
                `cd ${workspace}`,
                'env | sort',
                fill(git.host, 'repository-host.txt'),
                fill('evil.example', 'other-host.txt'),
              ].join('; '),
              security_risk: 'LOW',
            },
          },
        ],
      },
      { text: 'Done.' },
    );
    await service.api('POST', `/api/conversations/${id}/events`, {
      body: { action: 'message', args: { content: 'Show the environment and ask git' } },
    });
    const events = await until(
      () => conversationEvents(service, id),
      (all) => all.some((e) => e.action === 'message' && e.source === 'agent' && e.message === 'Done.'),
      'the commands',
    );
    const env = String(events.find((e) => e.observation === 'run')?.content);
    expect(env).toMatch(/^PATH=/m);
    expect(env).not.toMatch(/_TOKEN=/);
    expect(env).not.toContain('<secret_hidden>');
    expect(readFileSync(path.join(workspace, 'repository-host.txt'), 'utf8')).toContain(
      `username=x-access-token\npassword=${GITHUB}\n`,
    );
    const other = readFileSync(path.join(workspace, 'other-host.txt'), 'utf8');
    expect(other).not.toContain(GITHUB);
    expect(other).not.toContain(GITLAB);
    expect(other).not.toContain('password=');
  });
});
