import bs58 from 'bs58';
import type { Page } from 'playwright-core';
import nacl from 'tweetnacl';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';

/**
 * Test wallets injected into the page the way browser extensions do it. Signing happens in the
 * test process with real keys (viem for EIP-191, tweetnacl for ed25519), so the server verifies
 * genuine signatures; the page only sees the provider API.
 */
export async function injectEthereumWallet(
  page: Page,
  options: { privateKey?: `0x${string}`; refuse?: boolean } = {},
): Promise<PrivateKeyAccount> {
  const account = privateKeyToAccount(options.privateKey ?? generatePrivateKey());
  await page.exposeFunction('__testEthereumSign', async (data: string) =>
    account.signMessage({ message: data.startsWith('0x') ? { raw: data as `0x${string}` } : data }),
  );
  await page.addInitScript(
    ({ address, refuse }) => {
      const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });
      (window as any).ethereum = {
        isMetaMask: true,
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          if (refuse) throw rejection();
          if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
          if (method === 'eth_chainId') return '0x1';
          if (method === 'personal_sign') return (window as any).__testEthereumSign(String(params?.[0] ?? ''));
          throw Object.assign(new Error(`unsupported method ${method}`), { code: 4200 });
        },
        on: () => undefined,
        removeListener: () => undefined,
      };
    },
    { address: account.address, refuse: options.refuse ?? false },
  );
  return account;
}

export type TestSolanaWallet = { address: string; keyPair: nacl.SignKeyPair };

export async function injectSolanaWallet(page: Page, options: { refuse?: boolean } = {}): Promise<TestSolanaWallet> {
  const keyPair = nacl.sign.keyPair();
  const address = bs58.encode(keyPair.publicKey);
  await page.exposeFunction('__testSolanaSign', async (bytes: number[]) =>
    Array.from(nacl.sign.detached(Uint8Array.from(bytes), keyPair.secretKey)),
  );
  await page.addInitScript(
    ({ address, refuse }) => {
      const rejection = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });
      const publicKey = { toString: () => address, toBase58: () => address };
      const provider: any = {
        isPhantom: true,
        isConnected: false,
        publicKey: null,
        connect: async () => {
          if (refuse) throw rejection();
          provider.isConnected = true;
          provider.publicKey = publicKey;
          return { publicKey };
        },
        disconnect: async () => {
          provider.isConnected = false;
          provider.publicKey = null;
        },
        signMessage: async (message: Uint8Array) => {
          if (refuse) throw rejection();
          const signature: number[] = await (window as any).__testSolanaSign(Array.from(message));
          return { signature: Uint8Array.from(signature), publicKey };
        },
        on: () => undefined,
      };
      (window as any).phantom = { solana: provider };
      (window as any).solana = provider;
    },
    { address, refuse: options.refuse ?? false },
  );
  return { address, keyPair };
}
