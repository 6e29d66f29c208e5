import { expect, test } from './support/test';

test.use({ expectCspViolations: true });

test('a strict Content-Security-Policy blocks inline scripts and connections to other hosts', async ({
  page,
  service,
}) => {
  await page.goto(service.link);
  await expect(page.getByRole('heading', { name: 'Welcome to Dockhand' })).toBeVisible();

  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("default-src 'self'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-');

  const outcome = await page.evaluate(async () => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.effectiveDirective),
    );
    const inline = document.createElement('script');
    inline.textContent = 'document.body.dataset.inlineRan = "yes"';
    document.body.append(inline);
    const elsewhere = await fetch('http://example.invalid/').then(
      () => 'connected',
      () => 'blocked',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { inlineRan: document.body.dataset.inlineRan === 'yes', elsewhere, violations };
  });
  expect(outcome.inlineRan).toBe(false);
  expect(outcome.elsewhere).toBe('blocked');
  expect(outcome.violations.sort()).toEqual(['connect-src', 'script-src-elem']);
});
