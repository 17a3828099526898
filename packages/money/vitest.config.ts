import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@platform/money',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
