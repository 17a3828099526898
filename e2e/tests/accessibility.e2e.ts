import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  audit,
  type Finding,
  fundedTrader,
  navigate,
  presetTheme,
  report,
  settle,
  signInThroughModal,
  THEMES,
  type ThemeName,
} from '../support/a11y.ts';
import { useBrowser } from '../support/browser.ts';
import { PUBLIC_ROUTES, SIGNED_IN_ROUTES } from '../support/routes.ts';

/** The dialogs are checked in one dark and one light theme. */
const DIALOG_THEMES: readonly ThemeName[] = ['darkMode', 'brightLight'];

/** A11Y_THEMES=darkMode,brightLight narrows a local run; the suite runs every theme. */
const themes = process.env.A11Y_THEMES
  ? THEMES.filter((id) => process.env.A11Y_THEMES?.split(',').includes(id))
  : THEMES;

/**
 * The first route is checked whole (the shell: sidebar, top bar); the others by their own content,
 * <main>, as the shell around them is the same.
 */
async function auditRoutes(page: Page, routes: readonly string[], theme: ThemeName): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const [index, route] of routes.entries()) {
    await navigate(page, route);
    findings.push(...(await audit(page, route, theme, index === 0 ? undefined : 'main')));
  }
  return findings;
}

async function auditAuthDialogs(page: Page, theme: ThemeName): Promise<Finding[]> {
  await page.getByTestId('login-button').click();
  await expect.poll(() => page.getByTestId('login-email').isVisible()).toBe(true);
  const findings = await audit(page, 'login dialog', theme, '[role="dialog"]');
  await page.getByTestId('register-link').click();
  await expect.poll(() => page.getByTestId('register-email').isVisible()).toBe(true);
  findings.push(...(await audit(page, 'register dialog', theme, '[role="dialog"]')));
  await page.keyboard.press('Escape');
  await expect.poll(() => page.locator('[role="dialog"]').count()).toBe(0);
  return findings;
}

async function auditTradeAndDepositDialogs(page: Page, theme: ThemeName): Promise<Finding[]> {
  await navigate(page, '/trade');
  await page.getByTestId('pair-selector-button').click();
  await expect.poll(() => page.getByTestId('pair-selector-panel').isVisible()).toBe(true);
  const findings = await audit(page, 'pair selector', theme, '[data-testid="pair-selector-panel"]');
  await page.keyboard.press('Escape');
  await navigate(page, '/wallet?action=deposit');
  await expect.poll(() => page.getByTestId('deposit-address-panel').isVisible(), { timeout: 15_000 }).toBe(true);
  findings.push(...(await audit(page, 'deposit (address)', theme, '[data-testid="deposit-section"]')));
  await page.getByTestId('deposit-currency').click();
  await expect.poll(() => page.getByTestId('deposit-currency-search').isVisible()).toBe(true);
  findings.push(...(await audit(page, 'deposit (currency picker)', theme, '[data-testid="deposit-section"]')));
  await page.keyboard.press('Escape');
  await page.getByTestId('deposit-method-checkout').click();
  await expect.poll(() => page.getByTestId('deposit-amount').isVisible()).toBe(true);
  findings.push(...(await audit(page, 'deposit (checkout)', theme, '[data-testid="deposit-section"]')));
  return findings;
}

async function auditTheme(page: Page, theme: ThemeName, identity: { email: string; password: string }) {
  await presetTheme(page, theme);
  await page.goto('/');
  await settle(page);
  expect(await page.getByTestId('theme-select').inputValue()).toBe(theme);
  const findings = await auditRoutes(page, PUBLIC_ROUTES, theme);
  await navigate(page, '/');
  if (DIALOG_THEMES.includes(theme)) findings.push(...(await auditAuthDialogs(page, theme)));
  await signInThroughModal(page, identity.email, identity.password);
  findings.push(...(await auditRoutes(page, SIGNED_IN_ROUTES, theme)));
  if (DIALOG_THEMES.includes(theme)) findings.push(...(await auditTradeAndDepositDialogs(page, theme)));
  return findings;
}

/** Two themes at a time, each in its own browser context (the machine has two cores). */
const themePairs = themes.flatMap((_theme, index) => (index % 2 === 0 ? [themes.slice(index, index + 2)] : []));

describe('accessibility: axe-core (WCAG 2.0-2.2 A and AA) finds nothing serious on any route in any theme', () => {
  const browser = useBrowser();
  // Made once, inside the first test (expect.poll, which funding waits with, needs a test).
  let made: ReturnType<typeof fundedTrader> | undefined;
  const trader = () => {
    made ??= fundedTrader();
    return made;
  };

  it.each(themePairs.map((pair) => [pair.join(' + '), pair] as const))('%s', { timeout: 600_000 }, async (_, pair) => {
    const { identity } = await trader();
    const pages = [await browser.newContext()];
    for (const _theme of pair.slice(1)) pages.push(await browser.newContext());
    const results = await Promise.all(pair.map((theme, index) => auditTheme(pages[index] as Page, theme, identity)));
    const findings = results.flat();
    expect(findings.length, `${findings.length} serious or critical violations:\n${report(findings)}`).toBe(0);
  });
});
