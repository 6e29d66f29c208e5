import { SandboxInfo } from '../src/shared/api/sandboxes';
import { deleteConversations, SANDBOX_ENV, SANDBOX_IMAGE, sandboxSkipReason } from './support/sandbox-docker';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const skipReason = await sandboxSkipReason();
if (skipReason) console.warn(`Skipping the Sandboxes page test: ${skipReason}`);

test.use({ serviceOptions: { secrets: 'file', env: SANDBOX_ENV } });

test('the Sandboxes page names each sandbox by its conversation, suspends, resumes and, after asking, deletes a sandbox', async ({
  page,
  service,
}) => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(120_000);
  try {
    // A local model needs no key; with no first message the agent waits and the model is never called.
    await service.api('POST', '/api/settings', { llm_model: 'ollama/qwen2.5-coder' });
    const created = await service.api('POST', '/api/conversations', {});
    expect(created.status).toBe(200);
    const id = (created.body as { conversation_id: string }).conversation_id;

    await page.goto(service.link);
    await expect(page.getByRole('heading', { name: 'Home', exact: true })).toBeVisible();
    // `g` then `s` goes to Sandboxes from anywhere outside a text field.
    await page.getByRole('main').focus();
    await page.keyboard.press('g');
    await page.keyboard.press('s');
    await expect(page.getByRole('heading', { level: 1, name: 'Sandboxes' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sandboxes', exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );

    const images = page.getByRole('list', { name: 'Sandbox images' });
    await expect(images.getByRole('listitem').first()).toContainText(SANDBOX_IMAGE);
    await expect(images.getByRole('listitem').first()).toContainText('Image present');

    const list = page.getByRole('list', { name: 'Sandboxes' });
    const item = list.getByRole('listitem').first();
    await expect(item.locator('.badge')).toHaveText('Running', { timeout: 60_000 });
    const sandbox = SandboxInfo.parse(
      ((await service.api('GET', '/api/v1/sandboxes/search')).body as { items: unknown[] }).items[0],
    );
    await expect(item).toContainText(sandbox.id);
    const title = `Conversation ${id.slice(0, 5)}`;
    await expect(item.getByRole('link', { name: title })).toBeVisible();
    // The row shows the conversation's one state, as its header and the list do.
    await expect(item.locator('.state-pill')).toHaveText('Idle');
    const named = `the sandbox of ${title}`;
    await screenshot(page, 'sandboxes-running');

    await item.getByRole('button', { name: `Suspend ${named}` }).click();
    // Suspending the sandbox stops its conversation; the container keeps its files.
    await expect(item.locator('.badge')).toHaveText('Suspended');
    await expect(item.locator('.state-pill')).toHaveText('Stopped');
    await expect(item.getByRole('button', { name: `Resume ${named}` })).toBeVisible();
    await screenshot(page, 'sandboxes-paused');
    await item.getByRole('button', { name: `Resume ${named}` }).click();
    await expect(item.locator('.badge')).toHaveText('Running', { timeout: 60_000 });

    // Escape backs out of the question, with focus back on Delete.
    await item.getByRole('button', { name: `Delete ${named}` }).click();
    const question = page.getByRole('group', { name: `Confirm deleting ${named}` });
    await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(question).toHaveCount(0);
    await expect(item.getByRole('button', { name: `Delete ${named}` })).toBeFocused();

    await item.getByRole('button', { name: `Delete ${named}` }).click();
    await screenshot(page, 'sandboxes-delete-question');
    await question.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('No sandboxes')).toBeVisible({ timeout: 30_000 });
    expect((await service.api('GET', `/api/v1/sandboxes/${sandbox.id}`)).status).toBe(404);
    await screenshot(page, 'sandboxes-empty');
  } finally {
    await deleteConversations(service);
  }
});
