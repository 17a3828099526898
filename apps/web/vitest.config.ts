import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: '@platform/web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Whole-app tests load lazy chunks (screens, modals, toasts) on React's development build; on a
    // shared 2-core machine one such test can pass 5 s with nothing wrong.
    testTimeout: 15_000,
  },
});
