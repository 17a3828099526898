import { defineConfig } from 'vitest/config';

// Browser tests: one real server (embedded database) and one Chromium for the whole run.
export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.ts'],
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // UI steps include password hashing and route chunks loading; give each poll room.
    expect: { poll: { timeout: 10_000, interval: 100 } },
  },
});
