import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@platform/server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Integration suites boot a whole server on a fresh database; PGlite needs a few seconds to start.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
