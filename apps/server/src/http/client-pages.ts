import fs from 'node:fs';
import path from 'node:path';

/**
 * The client's index.html, per landing page. The client loads each screen lazily (spec §2.1), so a
 * browser opening /trade would learn of the trade page's code only after the shell had downloaded
 * and run; here the page itself names that code (`<link rel="modulepreload">`, and its stylesheet
 * as a preload), so it downloads alongside the shell (bench/README.md, "Trade page").
 *
 * The build's manifest (apps/web/vite.config.ts `build.manifest`) maps each screen's source to its
 * files. Without a manifest (an older build) every page gets index.html as it is.
 */

/** Landing paths and their screen modules: the same as apps/web/src/routes/route-modules.ts. */
export const LANDING_SCREENS: Readonly<Record<string, string>> = {
  '/': 'src/features/home/home-screen.tsx',
  '/trade': 'src/features/trade/trade-screen.tsx',
  '/markets': 'src/features/markets/markets-screen.tsx',
  '/wallet': 'src/features/wallet/wallet-screen.tsx',
  '/orders': 'src/features/orders/orders-screen.tsx',
  '/trades': 'src/features/orders/trades-screen.tsx',
  '/watchlist': 'src/features/watchlist/watchlist-screen.tsx',
  '/settings': 'src/features/settings/settings-screen.tsx',
};

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ClientPages {
  /** index.html for a page path (no query), with the preloads of its screen when it has one. */
  htmlFor(pathname: string): string;
}

/** Client pages that follow a rebuild: read again whenever index.html changes (a stat per page). */
export function clientPages(distDir: string): ClientPages {
  const indexFile = path.join(distDir, 'index.html');
  let built = -1;
  let pages: ClientPages | null = null;
  return {
    htmlFor(pathname) {
      const changed = fs.statSync(indexFile).mtimeMs;
      if (!pages || changed !== built) {
        pages = loadClientPages(distDir);
        built = changed;
      }
      return pages.htmlFor(pathname);
    },
  };
}

export function loadClientPages(distDir: string): ClientPages {
  const index = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const manifest = readManifest(path.join(distDir, '.vite', 'manifest.json'));
  const pages = new Map<string, string>();
  if (manifest) {
    const shell = new Set(filesOf(manifest, 'index.html').scripts);
    for (const [pathname, source] of Object.entries(LANDING_SCREENS)) {
      if (!manifest[source]) continue;
      const { scripts, styles } = filesOf(manifest, source);
      const links = [
        ...scripts
          .filter((file) => !shell.has(file))
          .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
        ...styles.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
      ];
      if (links.length > 0) pages.set(pathname, index.replace('</head>', `    ${links.join('\n    ')}\n  </head>`));
    }
  }
  return { htmlFor: (pathname) => pages.get(normalise(pathname)) ?? index };
}

/** A chunk's file and every file it imports statically (depth first), and their stylesheets. */
function filesOf(manifest: Manifest, key: string): { scripts: string[]; styles: string[] } {
  const scripts: string[] = [];
  const styles = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    const chunk = manifest[name];
    if (!chunk || seen.has(name)) return;
    seen.add(name);
    scripts.push(chunk.file);
    for (const file of chunk.css ?? []) styles.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return { scripts, styles: [...styles] };
}

function readManifest(file: string): Manifest | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

const normalise = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
