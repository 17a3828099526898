import fs from 'node:fs';
import path from 'node:path';
import { languageCodes } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { chartColors } from '../features/trade-market/chart-theme.ts';
import { scriptFontStack } from './script-fonts.ts';

const css = fs.readFileSync(path.join(import.meta.dirname, 'base.css'), 'utf8');

/** --font-script as base.css sets it for <html lang="code"> (its own :root:lang rule, else :root's). */
function cssScriptFonts(code: string): string {
  const own = new RegExp(`:root:lang\\(${code}\\)\\s*\\{[^}]*--font-script:\\s*([^;]+);`).exec(css);
  const root = /:root\s*\{[^}]*?--font-script:\s*([^;]+);/.exec(css);
  return (own?.[1] ?? root?.[1] ?? '').trim();
}

describe('script fonts', () => {
  it('names for a canvas the fonts base.css gives the page, in every language', () => {
    for (const code of languageCodes) expect(scriptFontStack(code), code).toBe(cssScriptFonts(code));
  });

  it('gives the charts the language script font before the generic family', () => {
    const font = chartColors('darkMode', 'ja').font;
    expect(font).not.toContain('var(');
    expect(font.indexOf('"Noto Sans JP"')).toBeGreaterThan(0);
    expect(font.indexOf('"Noto Sans JP"')).toBeLessThan(font.lastIndexOf('sans-serif'));
    expect(chartColors('darkMode', 'en').font).not.toContain('Noto Sans JP');
  });
});
