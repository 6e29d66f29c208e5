import { SANDBOX_ENV, sandboxSkipReason } from './support/sandbox-docker';
import { screenshot } from './support/screenshots';
import { expect, test } from './support/test';

const skipReason = await sandboxSkipReason();
if (skipReason) console.warn(`Skipping the warm pool page test: ${skipReason}`);

// An empty DOCKHAND_SANDBOX_WARM_POOL leaves the pool to the setting (default 1), as for users.
test.use({ serviceOptions: { secrets: 'file', env: { ...SANDBOX_ENV, DOCKHAND_SANDBOX_WARM_POOL: '' } } });

test('the Sandboxes page shows the warm pool, and Settings changes its size', async ({ page, service }) => {
  test.skip(skipReason !== null, skipReason ?? '');
  test.setTimeout(120_000);
  await page.goto(`${service.link}`);
  await page.getByRole('link', { name: 'Sandboxes', exact: true }).click();
  const pool = page.getByTestId('warm-pool');
  await expect(pool).toContainText('1 of 1 container ready', { timeout: 90_000 });
  await expect(pool).toContainText(SANDBOX_ENV.DOCKHAND_SANDBOX_IMAGE);
  await screenshot(page, 'warm-pool-ready');

  await pool.getByRole('link', { name: 'Settings' }).click();
  // The link opens Settings at its Sandboxes section.
  await expect(page.getByRole('tab', { name: 'Sandboxes' })).toHaveAttribute('aria-selected', 'true');
  const size = page.getByLabel('Warm containers');
  await size.fill('9');
  await page.getByRole('form', { name: 'Sandboxes' }).getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Enter 5 or less.')).toBeVisible();
  await expect(size).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, 'warm-pool-setting-invalid');
  await size.fill('0');
  await page.getByRole('form', { name: 'Sandboxes' }).getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByRole('form', { name: 'Sandboxes' })).toContainText('Settings saved.');

  await page.getByRole('form', { name: 'Sandboxes' }).getByRole('link', { name: 'Sandboxes' }).click();
  await expect(pool).toContainText('Off: each conversation creates its container when it starts', {
    timeout: 30_000,
  });
  await screenshot(page, 'warm-pool-off');
});
