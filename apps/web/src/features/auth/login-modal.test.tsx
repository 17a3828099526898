import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppToaster } from '../../components/shell/app-toaster.tsx';
import { useAppStore } from '../../state/app-store.ts';
import { errorResponse, json, stubFetch } from '../../test/fetch-mock.ts';
import { accountId, makeAccount, makeSession } from '../../test/fixtures.ts';
import { LoginModal } from './login-modal.tsx';

function renderOpenModal() {
  useAppStore.getState().openModal('login');
  const user = userEvent.setup();
  render(
    <>
      <LoginModal />
      <AppToaster />
    </>,
  );
  return user;
}

async function submitCredentials(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByTestId('login-email'), 'ada@example.com');
  await user.type(screen.getByTestId('login-password'), 'Str0ng!pass');
  await user.click(screen.getByTestId('login-submit'));
}

describe('login modal', () => {
  it('shows the spec texts for empty fields', async () => {
    const user = renderOpenModal();
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
  });

  it('switches to the two-factor view on a 401 about 2FA, and logs in with the code', async () => {
    const { calls } = stubFetch({
      'POST /v1/auth/login': [
        () => errorResponse(401, 'TWO_FACTOR_REQUIRED', 'Two-factor authentication required'),
        () => json(200, makeSession()),
      ],
      [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount({ two_factor_enabled: true })),
    });
    const user = renderOpenModal();
    await submitCredentials(user);

    const code = await screen.findByTestId('two-factor-code');
    expect(screen.queryByTestId('login-email')).not.toBeInTheDocument();
    expect(code).toHaveAttribute('maxlength', '6');

    await user.click(screen.getByTestId('two-factor-submit'));
    expect(await screen.findByText('Two-factor code is required')).toBeInTheDocument();
    await user.type(code, '12');
    await user.click(screen.getByTestId('two-factor-submit'));
    expect(await screen.findByText('Code must be 6 digits')).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByTestId('two-factor-submit'));

    expect(await screen.findByText('Login successful!')).toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(true);
    expect(useAppStore.getState().showLoginModal).toBe(false);
    expect(calls[1]?.body).toEqual({
      login_type: 'email',
      email: 'ada@example.com',
      password: 'Str0ng!pass',
      two_factor_code: '123456',
    });
  });

  it('back from the two-factor view clears the code', async () => {
    stubFetch({
      'POST /v1/auth/login': () => errorResponse(401, 'TWO_FACTOR_REQUIRED', 'Two-factor authentication required'),
    });
    const user = renderOpenModal();
    await submitCredentials(user);
    await user.type(await screen.findByTestId('two-factor-code'), '654321');
    await user.click(screen.getByTestId('two-factor-back'));
    expect(screen.getByTestId('login-email')).toBeInTheDocument();
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByTestId('two-factor-code')).toHaveValue('');
  });

  it("prefers the server's message when the login fails", async () => {
    stubFetch({ 'POST /v1/auth/login': () => errorResponse(401, 'INVALID_CREDENTIALS', 'Invalid credentials') });
    const user = renderOpenModal();
    await submitCredentials(user);
    expect(await screen.findByText('Invalid credentials')).toBeInTheDocument();
    expect(screen.queryByTestId('two-factor-code')).not.toBeInTheDocument();
    expect(useAppStore.getState().isAuthenticated).toBe(false);
  });

  it('tells the user to install a wallet when none is injected', async () => {
    const user = renderOpenModal();
    await user.click(screen.getByTestId('wallet-login-ethereum'));
    expect(
      await screen.findByText('Please install MetaMask or another Ethereum wallet and try again.'),
    ).toBeInTheDocument();
    await user.click(screen.getByTestId('wallet-login-solana'));
    expect(
      await screen.findByText('Please install Phantom or another Solana wallet and try again.'),
    ).toBeInTheDocument();
  });

  it('says so when the user refuses the wallet connection', async () => {
    window.ethereum = { request: async () => Promise.reject({ code: 4001, message: 'User rejected' }) };
    try {
      const user = renderOpenModal();
      await user.click(screen.getByTestId('wallet-login-ethereum'));
      expect(await screen.findByText('Wallet connection failed. Please try again.')).toBeInTheDocument();
    } finally {
      delete window.ethereum;
    }
  });

  it('signs the challenge and logs in with MetaMask', async () => {
    const address = '0xAbCdEf0123456789aBcDeF0123456789AbCdEf01';
    const requests: Array<{ method: string; params?: unknown[] }> = [];
    window.ethereum = {
      isMetaMask: true,
      request: async (args) => {
        requests.push(args);
        return args.method === 'eth_requestAccounts' ? [address] : '0xsignature';
      },
    };
    const { calls } = stubFetch({
      'POST /v1/auth/wallet-challenge': () =>
        json(200, { challenge: 'Sign in: é', nonce: 'n', expires_at: '2030-01-01T00:00:00Z' }),
      'POST /v1/auth/login': () => json(200, makeSession()),
      [`GET /v1/accounts/${accountId}`]: () => json(200, makeAccount({ wallet_address: address })),
    });
    try {
      const user = renderOpenModal();
      await user.click(screen.getByTestId('wallet-login-ethereum'));
      expect(await screen.findByText('Logged in with MetaMask!')).toBeInTheDocument();
      expect(requests[1]).toEqual({ method: 'personal_sign', params: ['0x5369676e20696e3a20c3a9', address] });
      expect(calls[1]?.body).toEqual({
        login_type: 'wallet',
        wallet_address: address,
        signature: '0xsignature',
        message: 'Sign in: é',
        wallet_type: 'ethereum',
      });
      expect(useAppStore.getState().wallet).toEqual({ address, network: 'ethereum', connected: true });
    } finally {
      delete window.ethereum;
    }
  });

  it('asks an unregistered wallet to register first', async () => {
    window.solana = {
      connect: async () => ({ publicKey: { toString: () => '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' } }),
      signMessage: async () => ({ signature: new Uint8Array([1, 2, 3]) }),
    };
    const { calls } = stubFetch({
      'POST /v1/auth/wallet-challenge': () => json(200, { challenge: 'c', nonce: 'n', expires_at: 'e' }),
      'POST /v1/auth/login': () =>
        errorResponse(404, 'WALLET_NOT_REGISTERED', 'Wallet not registered. Please register first.'),
    });
    try {
      const user = renderOpenModal();
      await user.click(screen.getByTestId('wallet-login-solana'));
      expect(await screen.findByText('Wallet not registered. Please register first.')).toBeInTheDocument();
      // bs58 of [1, 2, 3]
      expect(calls[1]?.body).toMatchObject({ signature: 'Ldp', wallet_type: 'solana' });
    } finally {
      delete window.solana;
    }
  });

  it('switches to the register modal', async () => {
    const user = renderOpenModal();
    await user.click(screen.getByTestId('register-link'));
    await waitFor(() => expect(useAppStore.getState().showRegisterModal).toBe(true));
    expect(useAppStore.getState().showLoginModal).toBe(false);
  });
});
