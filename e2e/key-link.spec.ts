import { screenshot } from './support/screenshots';
import { expect, KEY_STORAGE, test } from './support/test';

const welcome = { name: 'Welcome to Dockhand' };

test('opening the printed link keeps the key for the tab and removes it from the address bar', async ({
  page,
  service,
}) => {
  await page.goto(service.link);
  await expect(page.getByRole('heading', welcome)).toBeVisible();
  expect(page.url()).toBe(`${service.baseUrl}/`);
  expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBe(service.key);

  await page.reload();
  await expect(page.getByRole('heading', welcome)).toBeVisible();
  expect(page.url()).not.toContain(service.key);
  await screenshot(page, 'home');
});

test('without the link the page asks for the key and accepts the right one', async ({ page, service }) => {
  await page.goto(`${service.baseUrl}/`);
  await expect(page.getByRole('heading', { name: 'Enter your session key' })).toBeVisible();
  await screenshot(page, 'key-screen');

  await page.getByLabel('Session key').fill(service.key);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', welcome)).toBeVisible();
  expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBe(service.key);
});

test('a wrong key is refused on the key screen', async ({ page, service }) => {
  await page.goto(`${service.baseUrl}/`);
  const keyInput = page.getByLabel('Session key');
  await keyInput.fill(`${service.key}x`);
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByText('That key was not accepted')).toBeVisible();
  await expect(keyInput).toHaveAttribute('aria-invalid', 'true');
  await expect(keyInput).toHaveAccessibleDescription(/That key was not accepted/);
  expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBeNull();
  await screenshot(page, 'key-rejected');
});

test('a link with a wrong key ends on the key screen, not in the app', async ({ page, service }) => {
  await page.goto(`${service.baseUrl}/#key=not-the-key-of-this-service`);
  await expect(page.getByRole('heading', { name: 'Enter your session key' })).toBeVisible();
  await expect(page.getByText('That key was not accepted')).toBeVisible();
  expect(page.url()).toBe(`${service.baseUrl}/`);
  expect(await page.evaluate((name) => sessionStorage.getItem(name), KEY_STORAGE)).toBeNull();
});
