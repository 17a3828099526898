import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, inject } from 'vitest';

const CHROMIUM_PATHS = ['/usr/bin/chromium', '/usr/lib/chromium/chromium', '/usr/bin/chromium-browser'];
export const artifactsDir = path.resolve(import.meta.dirname, '../.artifacts');

function chromiumPath(): string {
  const found = process.env.CHROMIUM_PATH ?? CHROMIUM_PATHS.find((candidate) => fs.existsSync(candidate));
  if (!found) throw new Error("Chromium not found: install Debian's chromium package (.ci/run does)");
  return found;
}

export const baseUrl = () => inject('baseUrl');

/**
 * One Chromium per test file; every test gets a fresh context (fresh storage) and page. An error the
 * page does not catch (a throw in a handler or an effect, an unhandled rejection) fails the test that
 * caused it, whatever it was checking: a trader would see a broken screen.
 */
export function useBrowser(): {
  page: () => Page;
  context: () => BrowserContext;
  newContext: (options?: BrowserContextOptions) => Promise<Page>;
} {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const extraContexts: BrowserContext[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterEach(async (test) => {
    if (page && test.task.result?.state === 'fail') {
      fs.mkdirSync(artifactsDir, { recursive: true });
      const name = test.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      await page.screenshot({ path: path.join(artifactsDir, `${name}.png`) }).catch(() => undefined);
    }
    await context?.close();
    for (const extra of extraContexts.splice(0)) await extra.close();
    context = undefined;
    page = undefined;
    const uncaught = pageErrors.splice(0);
    if (uncaught.length > 0) throw new Error(`uncaught errors in the page:\n${uncaught.join('\n')}`);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (options: BrowserContextOptions = {}) => {
    if (!browser) throw new Error('browser not started');
    const created = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1440, height: 900 },
      ...options,
    });
    created.on('weberror', (webError) => {
      const error = webError.error();
      pageErrors.push(`${webError.page()?.url() ?? ''}: ${error.stack ?? error.message}`);
    });
    return { created, page: await created.newPage() };
  };

  return {
    page: () => {
      if (!page) throw new Error('call newContext() first');
      return page;
    },
    context: () => {
      if (!context) throw new Error('call newContext() first');
      return context;
    },
    newContext: async (options?: BrowserContextOptions) => {
      const opened = await open(options);
      if (context) extraContexts.push(opened.created);
      else {
        context = opened.created;
        page = opened.page;
      }
      return opened.page;
    },
  };
}
