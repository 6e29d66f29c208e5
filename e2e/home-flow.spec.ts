import { deflateSync } from 'node:zlib';
import { startFakeProviderApis, type FakeProviderApis } from '../test/support/fake-provider-apis';
import { startGitHttpServer, type GitHttpServer } from '../test/support/git-http-server';
import { faults, startScriptedLlm, type ScriptedLlm } from '../test/support/scripted-llm';
import { startService, type DockhandService } from './support/dockhand-service';
import { deleteConversations, HOST_NETWORK_SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { ScriptedAgent } from './support/scripted-agent';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

// The first run as a user lives it: onboarding, the model with a connection test, a GitHub token, a
// repository and branch from the (fake) provider, an image, and the conversation running in a real Docker
// sandbox that clones the repository from a git server on 127.0.0.1 (so the sandbox uses the host network).

const TOKEN = 'ghp_home-flow-token-81f3';
const MODEL = 'openai/gpt-4o';
const CONVERSATION_TIMEOUT_MS = 240_000;
const AGENT_WAIT = { timeout: 90_000 };
const WIDGETS = 'acme/widgets';
const BRANCH = 'fix-tests';

test.describe.configure({ mode: 'serial' });

let skipReason: string | null = null;
let llm: ScriptedLlm | undefined;
let agent: ScriptedAgent;
let git: GitHttpServer | undefined;
let apis: FakeProviderApis | undefined;
let service: DockhandService | undefined;

function running(): { service: DockhandService; llm: ScriptedLlm; git: GitHttpServer } {
  if (!service || !llm || !git)
    throw new Error('The service, the scripted model and the git server were not started');
  return { service, llm, git };
}

/** A 2×2 PNG, built here so the test needs no binary fixture. */
function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.from([0, 255, 0, 0, 0, 0, 255, 0, 0, 255, 0, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test.beforeAll(async () => {
  skipReason = await sandboxSkipReason();
  if (skipReason) {
    console.warn(`Skipping the first-run flow: ${skipReason}`);
    return;
  }
  llm = await startScriptedLlm([], { models: ['gpt-4o'] });
  agent = new ScriptedAgent(llm, 'Widgets work');
  git = await startGitHttpServer({
    token: TOKEN,
    repositories: [
      {
        name: WIDGETS,
        private: true,
        branches: { main: { 'README.md': 'widgets\n' }, [BRANCH]: { 'README.md': 'widgets on fix-tests\n' } },
      },
    ],
  });
  const otherRepositories = Array.from({ length: 35 }, (_, i) => ({
    provider: 'github' as const,
    fullName: `octo-dock/tool-${String(i).padStart(2, '0')}`,
    pushedAt: `2024-01-${String((i % 28) + 1).padStart(2, '0')}T00:00:00Z`,
  }));
  apis = await startFakeProviderApis(
    { github: TOKEN },
    {
      repositories: [
        {
          provider: 'github',
          fullName: WIDGETS,
          private: true,
          ownerType: 'organization',
          stars: 12,
          pushedAt: '2025-06-01T00:00:00Z',
          branches: [
            { name: 'main', sha: 'a'.repeat(40), protected: true },
            { name: BRANCH, sha: 'b'.repeat(40) },
            { name: 'release-1.0', sha: 'c'.repeat(40) },
          ],
        },
        {
          provider: 'github',
          fullName: 'acme/website',
          ownerType: 'organization',
          pushedAt: '2025-05-01T00:00:00Z',
        },
        ...otherRepositories,
      ],
      issues: [{ provider: 'github', repo: WIDGETS, number: 7, title: 'The README is out of date' }],
    },
  );
  service = await startService({
    secrets: 'file',
    providerApi: apis.host,
    env: HOST_NETWORK_SANDBOX_ENV,
  });
});

test.afterAll(async () => {
  if (service) {
    await deleteConversations(service);
    await service.stop();
  }
  await Promise.all([llm?.close(), git?.close(), apis?.close()]);
});

test.beforeEach(() => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(CONVERSATION_TIMEOUT_MS);
});

test('first run: onboarding, model with a connection test, a GitHub token, repository, branch and image', async ({
  page,
}) => {
  const { service: svc, llm: model, git: gitServer } = running();
  await page.goto(svc.link);

  // 1. Onboarding: nothing configured, one thing to do.
  const onboarding = page.getByRole('region', { name: 'Connect a language model to get started' });
  await expect(onboarding).toBeVisible();
  await expect(page.getByLabel('What should the agent do?')).toHaveCount(0);
  await screenshot(page, 'flow-01-onboarding');
  await onboarding.getByRole('link', { name: 'Set up a language model' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();

  // 2. The model, tested first with a key the provider rejects, then with a good one.
  await page.getByLabel('Provider', { exact: true }).selectOption('openai');
  await page.getByLabel('Model', { exact: true }).fill(MODEL);
  await page.getByLabel('Base URL').fill(model.baseUrl);
  await page.getByLabel('API key', { exact: true }).fill('sk-wrong-key-0000');
  model.push(faults.unauthorized());
  await page.getByRole('button', { name: 'Test connection' }).click();
  const rejected = page.getByRole('alert', { name: 'The provider rejected the API key' });
  await expect(rejected).toContainText('Fix: Check the API key');
  await expect(rejected).toContainText('Tested with the key typed above.');
  expect(await page.content()).not.toContain('sk-wrong-key-0000</');
  await screenshot(page, 'flow-02-test-connection-failed');

  await page.getByLabel('API key', { exact: true }).fill('sk-test');
  model.push({ text: 'OK' });
  await page.getByLabel('API key', { exact: true }).press('Tab');
  await page.getByRole('button', { name: 'Test connection' }).press('Enter');
  const connected = page.getByRole('status', { name: 'Connected' });
  await expect(connected).toContainText(/openai\/gpt-4o answered in \d+ ms\./);
  await expect(rejected).toHaveCount(0);
  await screenshot(page, 'flow-03-test-connection-ok');

  await page.getByRole('button', { name: 'Save settings' }).click();
  const saved = page.getByRole('status').filter({ hasText: 'Settings saved.' });
  await expect(saved.getByRole('link', { name: 'Start your first conversation' })).toBeVisible();

  // 3. A GitHub token, checked by the (fake) GitHub; its host is the git server the sandbox clones from.
  await page.getByRole('tab', { name: 'Git providers' }).click();
  await page.getByLabel('Git provider', { exact: true }).selectOption('github');
  await page.getByLabel('Host (optional)').fill(gitServer.host);
  await page.getByLabel('Token', { exact: true }).fill('ghp_not-the-token');
  await page.getByRole('button', { name: 'Save token' }).click();
  await expect(page.getByLabel('Token', { exact: true })).toHaveAccessibleDescription(/Invalid token/);
  await page.getByLabel('Token', { exact: true }).fill(TOKEN);
  await page.getByLabel('Token', { exact: true }).press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'GitHub token saved.' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Connected git providers' })).toContainText('GitHub');
  await screenshot(page, 'flow-04-git-token');

  // 4. Home: the repository, searched on the provider, chosen with the keyboard.
  await page.getByRole('tab', { name: 'Language model' }).click();
  await saved.getByRole('link', { name: 'Start your first conversation' }).click();
  await expect(page.getByRole('heading', { name: 'Home', level: 1 })).toBeVisible();
  const repository = page.getByRole('combobox', { name: 'Repository' });
  await expect(repository).toHaveValue('No repository');
  await repository.focus();
  await repository.press('ArrowDown');
  const repositories = page.getByRole('listbox', { name: 'Repository' });
  await expect(repositories.getByRole('option', { name: WIDGETS })).toBeVisible();
  await expect(repositories.getByRole('option', { name: 'Load more repositories' })).toBeVisible();
  await screenshot(page, 'flow-05-repository-list');
  await repository.press('Escape');
  await expect(repository).toHaveAttribute('aria-expanded', 'false');

  await repository.pressSequentially('widg');
  await expect(repositories.getByRole('option')).toHaveCount(1);
  await expect(repository).toHaveValue('widg');
  await expect(page.getByText('Searching for “widg”…')).toHaveCount(0);
  await expect(repositories.getByRole('option', { name: WIDGETS })).toHaveAttribute('aria-selected', 'true');
  await screenshot(page, 'flow-06-repository-search');
  await repository.press('Enter');
  await expect(repository).toHaveValue(WIDGETS);
  const search = apis?.requests.find((r) => r.path === '/search/repositories');
  expect(search?.query.q).toContain('widg');

  // 5. The branch: the default one first, then another found by search.
  const branch = page.getByRole('combobox', { name: 'Branch' });
  await expect(branch).toHaveValue('main');
  await branch.focus();
  await branch.pressSequentially('fix');
  const branches = page.getByRole('listbox', { name: 'Branch' });
  await expect(branches.getByRole('option', { name: BRANCH })).toBeVisible();
  await expect(page.getByText('Searching for “fix”…')).toHaveCount(0);
  await expect(branches.getByRole('option')).toHaveCount(1);
  await screenshot(page, 'flow-07-branch-search');
  await branch.press('Enter');
  await expect(branch).toHaveValue(BRANCH);

  // 6. The message and an image for the vision model.
  await page
    .getByLabel('What should the agent do?')
    .fill('Describe the attached picture, then read the README.');
  await page
    .getByLabel('Image files')
    .setInputFiles({ name: 'dots.png', mimeType: 'image/png', buffer: tinyPng() });
  const attached = page.getByRole('list', { name: 'Attached images' });
  await expect(attached.getByRole('img', { name: 'dots.png' })).toBeVisible();
  await page
    .getByLabel('Image files')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(page.getByRole('alert', { name: 'Images not attached' })).toContainText(
    'notes.txt is not a PNG, JPEG, GIF or WebP image.',
  );
  await screenshot(page, 'flow-08-ready-to-start');

  // 7. Start: the conversation opens and the model gets the image.
  agent.say({ text: 'The picture shows four coloured dots.' });
  await page.getByLabel('What should the agent do?').press('Control+Enter');
  await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);
  const events = page.getByRole('region', { name: 'Conversation events' });
  await expect(events.getByText('Describe the attached picture, then read the README.')).toBeVisible();
  await expect(events.getByText('The picture shows four coloured dots.')).toBeVisible(AGENT_WAIT);
  await screenshot(page, 'flow-09-conversation');
  // The agent's call (not the title's, which gets the text only) carries the picture.
  const withImage = model.calls.filter((call) => call.rawBody.includes('data:image/png;base64,'));
  expect(withImage.some((call) => call.rawBody.includes('Describe the attached picture'))).toBe(true);
  const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
  const info = (await svc.api('GET', `/api/conversations/${id}`)).body as Record<string, unknown>;
  expect(info).toMatchObject({
    selected_repository: WIDGETS,
    selected_branch: BRANCH,
    git_provider: 'github',
  });
});

test('suggested tasks are listed on Home and one starts a conversation', async ({ page }) => {
  const { service: svc } = running();
  await page.goto(svc.link);
  const tasks = page.getByRole('list', { name: 'Suggested tasks' });
  const task = tasks.getByRole('listitem').filter({ hasText: 'The README is out of date' });
  await expect(task).toContainText('Open issue');
  await expect(task).toContainText(`${WIDGETS}#7`);
  await screenshot(page, 'flow-10-suggested-tasks');

  agent.say({ text: 'I will update the README.' });
  await task.getByRole('button', { name: `Start: The README is out of date (${WIDGETS}#7)` }).click();
  await expect(page).toHaveURL(/#\/conversations\/[0-9a-f]{32}$/);
  const id = decodeURIComponent(new URL(page.url()).hash.split('/').pop() ?? '');
  const info = (await svc.api('GET', `/api/conversations/${id}`)).body as Record<string, unknown>;
  expect(info).toMatchObject({ trigger: 'suggested_task', selected_repository: WIDGETS });
  await expect(
    page.getByRole('region', { name: 'Conversation events' }).getByText('I will update the README.'),
  ).toBeVisible(AGENT_WAIT);
  await screenshot(page, 'flow-11-suggested-task-conversation');
});
