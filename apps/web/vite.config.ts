import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/v1': { target: apiTarget, changeOrigin: true },
      // The wallet service's calls (spec §7.3) live under /api/v1.
      '/api': { target: apiTarget, changeOrigin: true },
      '/health': { target: apiTarget, changeOrigin: true },
      '/docs': { target: apiTarget, changeOrigin: true },
      '/ws': { target: apiTarget, changeOrigin: true, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The server reads it to preload a landing screen's code with the page (apps/server/src/http/client-pages.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // Long-lived vendor code in its own chunks, so a product release does not bust their cache.
        // No catch-all vendor chunk: it would make the shell load every screen's libraries (QR
        // codes, forms of the wallet); other packages go with the chunks that use them.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            // The chart library is only for the trade page: its own chunk, loaded with that page.
            { name: 'charts', test: /node_modules[\\/](lightweight-charts|fancy-canvas)[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
});
