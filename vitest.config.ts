import { defineConfig } from 'vitest/config';

// No warm pool unless a test asks for one: tests that start many sandboxes must not race pooled containers.
const env = { DOCKHAND_SANDBOX_WARM_POOL: '0' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.int.test.ts'],
          env,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['src/**/*.int.test.ts', 'test/**/*.int.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          env,
        },
      },
    ],
  },
});
