import { REGISTRATION_RECEIVED_MESSAGE } from '@platform/contracts';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../../test/fixtures.ts';
import { RegisterModal } from './register-modal.tsx';

function renderOpenModal() {
  useAppStore.getState().openModal('register');
  const user = userEvent.setup();
  render(
    <>
      <RegisterModal />
      <AppToaster />
    </>,
  );
  return user;
}

/** What the server answers to every valid registration, whether or not the email was taken. */
const received = () => json(201, { email: 'ada@example.com', message: REGISTRATION_RECEIVED_MESSAGE });

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByTestId('register-first-name'), 'Ada');
  await user.type(screen.getByTestId('register-last-name'), 'Lovelace');
  await user.type(screen.getByTestId('register-email'), 'Ada@Example.com');
  await user.type(screen.getByTestId('register-password'), 'Str0ng!pass');
  await user.type(screen.getByTestId('register-confirm-password'), 'Str0ng!pass');
  await user.click(screen.getByTestId('register-terms'));
}

describe('register modal', () => {
  it('shows every required-field message word for word', async () => {
    const user = renderOpenModal();
    await user.click(screen.getByTestId('register-submit'));
    const modal = screen.getByTestId('register-modal');
    for (const text of [
      'First name is required',
      'Last name is required',
      'Email is required',
      'Password is required',
      'Please confirm your password',
      'You must accept the terms and conditions',
    ]) {
      expect(await within(modal).findByText(text)).toBeInTheDocument();
    }
  });

  it('explains weak passwords, mismatches and short names', async () => {
    const user = renderOpenModal();
    await user.type(screen.getByTestId('register-first-name'), 'A');
    await user.type(screen.getByTestId('register-email'), 'ada@');
    await user.type(screen.getByTestId('register-password'), 'abcdefgh');
    await user.type(screen.getByTestId('register-confirm-password'), 'abcdefgX');
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('First name must be at least 2 characters')).toBeInTheDocument();
    expect(screen.getByText('Invalid email address')).toBeInTheDocument();
    expect(screen.getByText('Password must contain at least one uppercase letter')).toBeInTheDocument();
    expect(screen.getByText('Passwords must match')).toBeInTheDocument();
    expect(screen.getByText('Fair')).toBeInTheDocument();
  });

  it('creates the account, logs in automatically and says so', async () => {
    const { calls } = stubFetch({
      'POST /v1/accounts': received,
      'POST /v1/auth/login': () => json(200, makeSession()),
      [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount()),
    });
    const user = renderOpenModal();
    await fillValidForm(user);
    await user.click(screen.getByTestId('register-marketing'));
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Account created and logged in successfully!')).toBeInTheDocument();
    expect(calls[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'Str0ng!pass',
      first_name: 'Ada',
      last_name: 'Lovelace',
      terms_accepted: true,
      marketing_consent: true,
      language: 'en',
    });
    expect(useAppStore.getState().isAuthenticated).toBe(true);
    expect(useAppStore.getState().showRegisterModal).toBe(false);
  });

  it('asks for a manual login when the automatic one fails', async () => {
    stubFetch({
      'POST /v1/accounts': received,
      'POST /v1/auth/login': () => errorResponse(429, 'RATE_LIMITED', 'Too many attempts. Please try again later.'),
    });
    const user = renderOpenModal();
    await fillValidForm(user);
    await user.click(screen.getByTestId('register-submit'));
    expect(await screen.findByText('Account created successfully! Please log in manually.')).toBeInTheDocument();
    expect(useAppStore.getState().showLoginModal).toBe(true);
  });

  it('asks for a login and points to the mail when the email already had an account', async () => {
    stubFetch({
      'POST /v1/accounts': received,
      'POST /v1/auth/login': () => errorResponse(401, 'INVALID_CREDENTIALS', 'Invalid credentials'),
    });
    const user = renderOpenModal();
    await fillValidForm(user);
    await user.click(screen.getByTestId('register-submit'));
    expect(
      await screen.findByText('Please log in. If this email already had an account, we have sent you an email.'),
    ).toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(false);
    expect(useAppStore.getState().showLoginModal).toBe(true);
  });

  it("shows the server's message when registration fails", async () => {
    stubFetch({
      'POST /v1/accounts': () => errorResponse(400, 'VALIDATION_ERROR', 'Invalid email address'),
    });
    const user = renderOpenModal();
    await fillValidForm(user);
    await user.click(screen.getByTestId('register-submit'));
    expect((await screen.findAllByText('Invalid email address')).length).toBeGreaterThan(0);
    expect(useAppStore.getState().isAuthenticated).toBe(false);
  });

  it('connects a wallet, disables the wallet buttons and creates a wallet account', async () => {
    const address = '0x1111111111111111111111111111111111111111';
    window.ethereum = {
      request: async ({ method }) => (method === 'eth_requestAccounts' ? [address] : '0xsig'),
    };
    const { calls } = stubFetch({
      'POST /v1/auth/wallet-challenge': () => json(200, { challenge: 'c', nonce: 'n', expires_at: 'e' }),
      'POST /v1/auth/wallet-register': () =>
        json(201, { ...makeSession(), account: makeAccount({ wallet_address: address, first_name: 'User' }) }),
    });
    try {
      const user = renderOpenModal();
      expect(screen.queryByTestId('wallet-create-account')).not.toBeInTheDocument();
      await user.click(screen.getByTestId('wallet-register-ethereum'));
      const create = await screen.findByTestId('wallet-create-account');
      expect(screen.getByTestId('wallet-register-ethereum')).toBeDisabled();
      expect(screen.getByTestId('wallet-register-solana')).toBeDisabled();
      await user.click(create);
      expect(await screen.findByText('Wallet account created and logged in successfully!')).toBeInTheDocument();
      expect(calls.find((call) => call.path === '/v1/auth/wallet-register')?.body).toEqual({
        wallet_address: address,
        signature: '0xsig',
        message: 'c',
        wallet_type: 'ethereum',
        first_name: 'User',
        marketing_consent: false,
        language: 'en',
      });
      expect(useAppStore.getState().user?.first_name).toBe('User');
    } finally {
      delete window.ethereum;
    }
  });
});
