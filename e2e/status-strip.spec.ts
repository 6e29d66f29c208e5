import { ServerInfo } from '../src/shared/api/server';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

/** A message from /server_info as the page shows it: `backticked` parts become code, without the ticks. */
function shownText(message: string | null): string {
  expect(message, 'a message from /server_info').not.toBeNull();
  return (message ?? '').replaceAll('`', '');
}

test('the status strip shows the Docker state and where secrets are stored', async ({ page, service }) => {
  const info = ServerInfo.parse((await service.api('GET', '/server_info')).body);
  await page.goto(service.link);
  const status = page.getByRole('region', { name: 'Service status' });

  const items = status.getByRole('listitem');
  if (info.docker.available) {
    await expect(items.filter({ hasText: 'Docker available' })).toBeVisible();
  } else {
    await status.getByRole('button', { name: /Docker/ }).click();
    await expect(status).toContainText(info.docker.error ?? 'missing error', { ignoreCase: true });
    await page.keyboard.press('Escape');
  }
  // A problem is a chip, not a banner: its details open on click and close with Escape.
  const unencrypted = status.getByRole('note', { name: 'Secrets are stored unencrypted' });
  await expect(unencrypted).toHaveCount(0);
  const chip = status.getByRole('button', { name: 'Secrets in a plain file' });
  await expect(chip).toHaveAttribute('aria-expanded', 'false');
  expect((await status.boundingBox())?.height).toBeLessThan(40);
  await chip.click();
  await expect(unencrypted).toContainText('DOCKHAND_SECRETS=file');
  await page.keyboard.press('Escape');
  await expect(unencrypted).toHaveCount(0);
  await expect(status).toContainText(`Dockhand ${info.version}`);
});

test.describe('with no Docker engine and no reachable keychain', () => {
  test.use({
    serviceOptions: { secrets: 'unreachable-keychain', dockerHost: 'unix:///nonexistent/dockhand-e2e.sock' },
  });

  test('names what is wrong with each and how to fix it', async ({ page, service }) => {
    const info = ServerInfo.parse((await service.api('GET', '/server_info')).body);
    expect(info.docker.available).toBe(false);
    expect(info.docker.cause).toBe('not_running');
    expect(info.keychain.state).not.toBe('ok');

    await page.goto(service.link);
    const status = page.getByRole('region', { name: 'Service status' });
    const items = status.getByRole('listitem');
    await expect(items.filter({ hasText: 'Docker not running' })).toBeVisible();
    await expect(items.filter({ hasText: 'Keychain unavailable' })).toBeVisible();
    await status.getByRole('button', { name: 'Docker not running' }).click();
    const docker = status.getByRole('note', { name: 'Sandboxes cannot start until Docker is available' });
    // Shown as a sentence: its first letter in upper case.
    await expect(docker).toContainText(shownText(info.docker.error), { ignoreCase: true });
    await expect(docker).toContainText(`Fix: ${shownText(info.docker.fix)}`);

    await status.getByRole('button', { name: 'Keychain unavailable' }).click();
    await expect(docker).toHaveCount(0);
    const keychain = status.getByRole('note', { name: 'API keys and secrets cannot be saved' });
    await expect(keychain).toContainText(shownText(info.keychain.message));
    await expect(keychain).toContainText(`Fix: ${shownText(info.keychain.fix)}`);
    if (info.keychain.fix?.includes('`')) await expect(keychain.locator('code').first()).toBeVisible();
    await expect(status).not.toContainText('{"');
    await screenshot(page, 'status-problems');

    const recheck = page.waitForResponse((response) => response.url() === `${service.baseUrl}/server_info`);
    await status.getByRole('button', { name: 'Check again' }).click();
    expect((await recheck).status()).toBe(200);
    await expect(items.filter({ hasText: 'Docker not running' })).toBeVisible();
  });
});
