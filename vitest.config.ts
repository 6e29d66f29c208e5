import { defineConfig } from 'vitest/config';
import { onCi } from './test/support/required-in-ci';

// No warm pool unless a test asks for one: tests that start many sandboxes must not race pooled containers.
const env = { DOCKHAND_SANDBOX_WARM_POOL: '0' };

// On CI the files, and the integration tests in each file, run shuffled, so that no test passes only after
// another. The order comes from DOCKHAND_TEST_SEED, else from a fixed seed, so that a CI run can be repeated
// exactly (a failing order is a bug to fix, not a run to retry); the seed is printed. `--sequence.seed=<n>`
// tries another order, and `--sequence.shuffle` shuffles a local run.
const shuffled = onCi();
const seed = Number(process.env.DOCKHAND_TEST_SEED ?? 1795923475987);

export default defineConfig({
  test: {
    // The order of the files is the root's to decide: one sequencer serves every project.
    sequence: { shuffle: { files: shuffled, tests: false }, seed },
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
          sequence: { shuffle: { tests: shuffled } },
          env,
        },
      },
    ],
  },
});
