/**
 * The client renders with Preact's compatibility layer (`preact/compat`) in place of React: the same
 * components and libraries (React Router, TanStack Query, react-hook-form, react-i18next) for a
 * fraction of the weight (react-dom alone was 63 KB of the shell's gzip; Preact and its compat layer
 * are about 8). The build and the component tests both resolve `react` and `react-dom` here, so the
 * tests run on what ships. `UI_RUNTIME=react` builds and tests on React itself, to compare.
 */
export const uiRuntime = process.env.UI_RUNTIME === 'react' ? 'react' : 'preact';

export const uiRuntimeAliases =
  uiRuntime === 'react'
    ? []
    : [
        { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
        { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
        { find: /^react-dom$/, replacement: 'preact/compat' },
        { find: /^react$/, replacement: 'preact/compat' },
        { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
        { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-runtime' },
        // React's own useSyncExternalStore is in the compat layer; the shim (CommonJS) would require React.
        { find: /^use-sync-external-store\/shim(\/index\.js)?$/, replacement: 'preact/compat' },
      ];
