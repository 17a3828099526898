import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { navigate, presetTheme, settle, THEMES } from '../support/a11y.ts';
import { useBrowser } from '../support/browser.ts';

/** 'rgb(1, 2, 3)' or 'rgba(1, 2, 3, 0.5)' as channels 0-255. */
function channels(css: string): [number, number, number] {
  const [r = 0, g = 0, b = 0] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return [r, g, b];
}

function luminance([r, g, b]: [number, number, number]): number {
  const linear = (value: number) => {
    const s = value / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(first: string, second: string): number {
  const [light, dark] = [luminance(channels(first)), luminance(channels(second))].sort((x, y) => y - x) as [
    number,
    number,
  ];
  return (light + 0.05) / (dark + 0.05);
}

/** The focused control's outline, and the colour of the surface behind it (the nearest opaque background). */
const focusRing = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    const style = getComputedStyle(element);
    let behind = element.parentElement;
    let background = 'rgb(0, 0, 0)';
    while (behind) {
      const color = getComputedStyle(behind).backgroundColor;
      if (color && !color.startsWith('rgba(0, 0, 0, 0)') && !/,\s*0\)$/.test(color) && !color.includes('/ 0)')) {
        background = color;
        break;
      }
      behind = behind.parentElement;
    }
    if (!behind) background = getComputedStyle(document.body).backgroundColor;
    return {
      testId: element.dataset.testid ?? element.tagName,
      style: style.outlineStyle,
      width: Number.parseFloat(style.outlineWidth),
      color: style.outlineColor,
      background,
    };
  });

describe('focus visible in every theme; reduced motion honoured', () => {
  const browser = useBrowser();

  it('draws a 2px focus ring of 3:1 against the surface on keyboard focus, in all eight themes', {
    timeout: 240_000,
  }, async () => {
    for (const theme of THEMES) {
      const page = await browser.newContext();
      await presetTheme(page, theme);
      await page.goto('/markets');
      await settle(page);
      // The first dozen Tab stops: skip link, sidebar brand and links, the top bar's controls.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      let checked = 0;
      for (let press = 0; press < 12; press++) {
        await page.keyboard.press('Tab');
        const ring = await focusRing(page);
        if (ring.testId === 'BODY') continue;
        checked += 1;
        expect(ring.style, `${theme} ${ring.testId}`).not.toBe('none');
        expect(ring.width, `${theme} ${ring.testId}`).toBeGreaterThanOrEqual(2);
        const ratio = contrast(ring.color, ring.background);
        expect(ratio, `${theme} ${ring.testId}: ${ring.color} on ${ring.background}`).toBeGreaterThanOrEqual(3);
      }
      expect(checked, theme).toBeGreaterThan(5);
      // And a form control: the login dialog's e-mail field.
      await page.getByTestId('login-button').focus();
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await focusRing(page)).testId).toBe('login-email');
      const field = await focusRing(page);
      expect(field.style, `${theme} login-email`).not.toBe('none');
      expect(contrast(field.color, field.background), `${theme} login-email`).toBeGreaterThanOrEqual(3);
    }
  });

  it('turns animations, transitions and smooth scrolling off under prefers-reduced-motion', async () => {
    const page = await browser.newContext({ reducedMotion: 'reduce' });
    await presetTheme(page, 'gradientSunset');
    await page.goto('/markets');
    await settle(page);
    const timings = () =>
      page.evaluate(() =>
        Array.from(
          document.querySelectorAll<HTMLElement>(
            '.btn, .nav-link, .market-row, .feed-dot, .modal, .modal-backdrop, .spinner, .live-price',
          ),
        ).map((element) => {
          const style = getComputedStyle(element);
          return {
            name: element.className,
            transition: style.transitionDuration,
            animation: style.animationDuration,
            scroll: getComputedStyle(document.documentElement).scrollBehavior,
          };
        }),
      );
    await page.getByTestId('login-button').click();
    await expect.poll(() => page.locator('.modal').count()).toBe(1);
    const seen = await timings();
    expect(seen.length).toBeGreaterThan(5);
    for (const element of seen) {
      expect(
        element.transition.split(', ').every((value) => value === '0s'),
        `${element.name} ${element.transition}`,
      ).toBe(true);
      expect(
        element.animation.split(', ').every((value) => value === '0s'),
        `${element.name} ${element.animation}`,
      ).toBe(true);
      expect(element.scroll).toBe('auto');
    }
    // Without the preference the same controls do move (the check above can fail).
    const moving = await browser.newContext();
    await presetTheme(moving, 'gradientSunset');
    await moving.goto('/markets');
    await settle(moving);
    await navigate(moving, '/markets');
    const transitions = await moving.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.btn, .nav-link')).map(
        (element) => getComputedStyle(element).transitionDuration,
      ),
    );
    expect(transitions.some((value) => value.split(', ').some((part) => part !== '0s'))).toBe(true);
  });
});
