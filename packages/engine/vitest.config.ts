import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: '@platform/engine', environment: 'node', include: ['src/**/*.test.ts'] },
});
