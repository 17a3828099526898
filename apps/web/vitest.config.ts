import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { uiRuntime, uiRuntimeAliases } from './ui-runtime.ts';

const require = createRequire(import.meta.url);
/** A file of a package by path, past its `exports` (whose Node entry is CommonJS, which would require React
 * itself, past the aliases). */
const esModuleOf = (name: string, file: string) =>
  path.join(path.dirname(require.resolve(`${name}/package.json`)), file);

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: [
      ...uiRuntimeAliases,
      // Its ES module build, so the alias above applies to what it imports.
      ...(uiRuntime === 'react'
        ? []
        : [
            {
              find: /^@testing-library\/react$/,
              replacement: '@testing-library/react/dist/@testing-library/react.esm.js',
            },
            { find: /^react-router$/, replacement: esModuleOf('react-router', 'dist/development/index.mjs') },
            { find: /^lucide-react$/, replacement: esModuleOf('lucide-react', 'dist/esm/lucide-react.mjs') },
          ]),
    ],
  },
  test: {
    name: '@platform/web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    css: false,
    // Libraries that import React go through Vite too, so they get the same runtime as the app.
    server: {
      deps: {
        inline:
          uiRuntime === 'react'
            ? []
            : [
                /@testing-library[\\/](react|preact)/,
                /react-router/,
                /@tanstack[\\/]react-query/,
                /react-i18next/,
                /react-hot-toast/,
                /react-hook-form/,
                /@hookform/,
                /zustand/,
                /lucide-react/,
                /qrcode\.react/,
                /use-sync-external-store/,
                /goober/,
                // One copy of Preact for all of the above.
                /[\\/]preact[\\/]/,
              ],
      },
    },
  },
});
