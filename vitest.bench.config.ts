import { defineConfig } from 'vitest/config';

// The CI speed guard (bench/ci): ratios to floors measured in the same run, with generous bounds. Run by .ci/run
// after `npm test`; not part of the test suite (speed is measured by benches, not asserted by tests).
export default defineConfig({
  test: {
    include: ['bench/ci/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20000,
    hookTimeout: 300000,
    pool: 'forks',
  },
});
