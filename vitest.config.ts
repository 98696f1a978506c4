import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The CLI tests spawn dist/cli.js; build it once before any test runs.
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 20000,
    pool: 'forks',
  },
});
