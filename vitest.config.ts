import { defineConfig } from 'vitest/config';

const shared = { exclude: ['node_modules/**', '.skrya/**'] };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'unit',
          include: ['**/*.test.ts'],
          exclude: [...shared.exclude, '**/*.int.test.ts'],
          // A guard against hangs, not a speed budget: tests wait on events, and a worker thread
          // loading the scorer on two busy cores can take several seconds to answer.
          testTimeout: 180_000,
          // The learned classifiers' weights are built once into the git-ignored cache first.
          globalSetup: ['test/build-models.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'integration',
          include: ['**/*.int.test.ts'],
          globalSetup: ['test/build-models.ts', 'test/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One broker on two cores: integration files run one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
