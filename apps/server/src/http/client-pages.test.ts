import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientPages, LANDING_SCREENS, loadClientPages } from './client-pages.ts';

const INDEX = '<!doctype html><html><head><title>client</title>\n  </head><body></body></html>';
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js', '_shared-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_shared-1.js': { file: 'assets/shared-1.js', imports: ['_react-1.js'] },
  '_book-1.js': { file: 'assets/book-1.js', imports: ['_shared-1.js', '_texts-1.js'], css: ['assets/book-1.css'] },
  '_texts-1.js': { file: 'assets/texts-1.js' },
  'src/features/trade/trade-screen.tsx': {
    file: 'assets/trade-screen-1.js',
    imports: ['_react-1.js', '_book-1.js', 'index.html'],
    css: ['assets/trade-screen-1.css'],
    dynamicImports: ['src/features/trade-market/price-chart.tsx'],
  },
  'src/features/trade-market/price-chart.tsx': { file: 'assets/price-chart-1.js' },
};

describe('client pages: a landing screen preloaded with its page', () => {
  let dist: string;
  beforeEach(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'client-pages-'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  });
  afterEach(() => fs.rmSync(dist, { recursive: true, force: true }));

  it('names the trade page’s code and styles in /trade, not what the shell already loads nor lazy parts', () => {
    const html = loadClientPages(dist).htmlFor('/trade');
    const preloads = [...html.matchAll(/<link rel="(modulepreload|preload)"[^>]*href="([^"]+)"/g)].map(
      ([, rel, href]) => `${rel} ${href}`,
    );
    expect(preloads).toEqual([
      'modulepreload /assets/trade-screen-1.js',
      'modulepreload /assets/book-1.js',
      'modulepreload /assets/texts-1.js',
      'preload /assets/trade-screen-1.css',
      'preload /assets/book-1.css',
    ]);
    expect(html).toContain('<link rel="preload" as="style" crossorigin href="/assets/book-1.css">');
    expect(html.indexOf('modulepreload')).toBeLessThan(html.indexOf('</head>'));
    expect(html).not.toContain('price-chart');
    expect(html).not.toContain('react-1.js');
    expect(loadClientPages(dist).htmlFor('/trade/')).toBe(html);
  });

  it('leaves other pages, and every page of a build without a manifest, as index.html is', () => {
    expect(loadClientPages(dist).htmlFor('/no/such/page')).toBe(INDEX);
    expect(loadClientPages(dist).htmlFor('/markets')).toBe(INDEX); // not in this build's manifest
    fs.rmSync(path.join(dist, '.vite'), { recursive: true });
    expect(loadClientPages(dist).htmlFor('/trade')).toBe(INDEX);
  });

  it('follows a rebuild of the client without a restart', () => {
    const pages = clientPages(dist);
    expect(pages.htmlFor('/trade')).toContain('trade-screen-1.js');
    const rebuilt = JSON.stringify(MANIFEST).replaceAll('trade-screen-1', 'trade-screen-2');
    fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), rebuilt);
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX.replace('client', 'client 2'));
    fs.utimesSync(path.join(dist, 'index.html'), new Date(), new Date(Date.now() + 5_000));
    const html = pages.htmlFor('/trade');
    expect(html).toContain('trade-screen-2.js');
    expect(html).toContain('<title>client 2</title>');
  });

  it('names screens the client really has, and loads the way its router does', () => {
    // A renamed or moved screen would silently lose its preload: keep the two lists in step.
    const web = path.resolve(import.meta.dirname, '../../../web');
    const routes = fs.readFileSync(path.join(web, 'src/routes/route-modules.ts'), 'utf8');
    for (const source of Object.values(LANDING_SCREENS)) {
      expect(fs.existsSync(path.join(web, source)), source).toBe(true);
      expect(routes, source).toContain(`import('../${source.replace(/^src\//, '')}')`);
    }
  });
});
