import { test as base, expect } from '@playwright/test';
import { startService, type DockhandService, type ServiceOptions } from './dockhand-service';

export { expect };

export const KEY_STORAGE = 'dockhand.sessionApiKey';

interface Fixtures {
  /** How the test's service runs; change it with `test.use({ serviceOptions })`. */
  serviceOptions: ServiceOptions;
  /** A fresh headless service with an empty data folder, stopped with SIGTERM after the test (and the page). */
  service: DockhandService;
  /** Set by tests that provoke Content-Security-Policy violations on purpose. */
  expectCspViolations: boolean;
  /** Fails the test when the page throws or, unless expected, the Content-Security-Policy blocks something. */
  pageProblems: undefined;
}

export const test = base.extend<Fixtures>({
  serviceOptions: [{ secrets: 'file' }, { option: true }],
  expectCspViolations: [false, { option: true }],
  service: async ({ serviceOptions, page }, use, testInfo) => {
    const service = await startService(serviceOptions);
    try {
      await use(service);
    } finally {
      // An open page keeps polling, and `dockhand serve` waits for busy connections when it stops. After
      // a failure the page stays as it was, for the screenshot and the trace.
      if (testInfo.status === testInfo.expectedStatus) await page.goto('about:blank');
      await service.stop();
    }
  },
  pageProblems: [
    async ({ page, expectCspViolations }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`Uncaught: ${error.message}`));
      page.on('console', (message) => {
        if (expectCspViolations) return;
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
          problems.push(message.text());
        }
      });
      await use(undefined);
      expect(problems, 'page errors and CSP violations').toEqual([]);
    },
    { auto: true },
  ],
});
