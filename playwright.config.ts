import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './e2e/support/chromium';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  globalSetup: './e2e/support/global-setup.ts',
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  // Generous: a conversation's first events wait for a Docker sandbox to start, which a busy machine slows.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'browser',
      testIgnore: /electron\.spec\.ts$/,
      use: {
        browserName: 'chromium',
        headless: true,
        viewport: { width: 1280, height: 800 },
        launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
      },
    },
    {
      name: 'electron',
      testMatch: /electron\.spec\.ts$/,
    },
  ],
});
