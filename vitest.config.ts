import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace except the browser suite (e2e/ runs on its own).
export default defineConfig({
  test: {
    projects: ['packages/money', 'packages/engine', 'apps/server', 'apps/web'],
  },
});
