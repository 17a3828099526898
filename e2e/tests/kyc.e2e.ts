import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { call, registerByApi } from '../support/api.ts';
import { useBrowser } from '../support/browser.ts';

type Identity = Awaited<ReturnType<typeof registerByApi>>['identity'];

/** A real 1x1 PNG: the browser and the server both check a document's bytes, not only its name. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

async function signInThroughModal(page: Page, identity: Identity) {
  await page.goto('/');
  await page.getByTestId('login-button').click();
  await page.getByTestId('login-email').fill(identity.email);
  await page.getByTestId('login-password').fill(identity.password);
  await page.getByTestId('login-submit').click();
  await expect.poll(() => page.getByTestId('user-avatar').isVisible()).toBe(true);
}

describe('KYC verification in the browser', () => {
  const browser = useBrowser();

  it('goes through the stepper, submits a passport, and sees the verification under review', async () => {
    const { identity, session } = await registerByApi();
    const page = await browser.newContext();
    await signInThroughModal(page, identity);

    await page.goto('/wallet?tab=kyc');
    await expect.poll(() => page.getByTestId('kyc-status').getAttribute('data-status')).toBe('unverified');
    await expect.poll(() => page.getByTestId('kyc-form').isVisible()).toBe(true);

    // Step 1: the account's name is filled in already.
    expect(await page.getByTestId('kyc-firstName').inputValue()).toBe(identity.firstName);
    await page.getByTestId('kyc-phone').fill('+44 20 7946 0958');
    await page.getByTestId('kyc-dateOfBirth').fill('1990-12-10');
    await page.getByTestId('kyc-next').click();
    await expect.poll(() => page.getByTestId('kyc-step-heading').textContent()).toBe('Address & Document');

    // Step 2.
    await page.getByTestId('kyc-country').selectOption('GB');
    await page.getByTestId('kyc-address').fill('12 St James Sq');
    await page.getByTestId('kyc-city').fill('London');
    await page.getByTestId('kyc-postalCode').fill('SW1Y 4JH');
    await page.getByTestId('kyc-documentType').selectOption('passport');
    await page.getByTestId('kyc-documentNumber').fill('P1234567');
    await page.getByTestId('kyc-next').click();
    await expect.poll(() => page.getByTestId('kyc-step-heading').textContent()).toBe('Document Verification');

    // Step 3: a passport has one side.
    await page
      .getByTestId('kyc-file-documentFront-input')
      .setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
    await expect.poll(() => page.getByTestId('kyc-file-documentFront').textContent()).toContain('passport.png');
    await page.getByTestId('kyc-submit').click();

    await expect.poll(() => page.getByText('Verification submitted for review').first().isVisible()).toBe(true);
    await expect.poll(() => page.getByTestId('kyc-status').getAttribute('data-status')).toBe('pending');
    expect(await page.getByTestId('kyc-status-badge').textContent()).toContain('Under review');
    expect(await page.getByTestId('kyc-form').count()).toBe(0);
    // The number is masked even to its owner.
    await expect.poll(() => page.getByTestId('kyc-document-number').textContent()).toMatch(/^\*+4567$/);

    // It stays under review after a reload, and the server says the same.
    await page.reload();
    await expect.poll(() => page.getByTestId('kyc-status').getAttribute('data-status')).toBe('pending');
    const status = await call<{ latest_submission: { status: string } | null; can_submit: boolean }>(
      'GET',
      '/api/v1/kyc/status',
      undefined,
      session.token,
    );
    expect(status.latest_submission?.status).toBe('pending');
    expect(status.can_submit).toBe(false);

    // Approval is for reviewers (compliance or admin), whom only the grant-role command makes; the
    // embedded database of this run cannot be opened by a second process while the server runs, so
    // the suite checks only that the account itself may not approve its own verification.
    const queue = await fetch(`${new URL(page.url()).origin}/api/v1/compliance/kyc`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(queue.status).toBe(403);
  });
});
