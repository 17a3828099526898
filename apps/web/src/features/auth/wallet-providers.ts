import type { WalletType } from '@platform/contracts';
import bs58 from 'bs58';
import { UserFacingError } from '../../lib/error-message.ts';
import { hexUtf8 } from '../../lib/wallet-format.ts';

/** EIP-1193 provider injected by MetaMask and other Ethereum-style wallets. */
export interface EthereumProvider {
  isMetaMask?: boolean;
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The provider Phantom and other Solana-style wallets inject. */
export interface SolanaProvider {
  isPhantom?: boolean;
  connect(): Promise<{ publicKey: { toString(): string } }>;
  signMessage(message: Uint8Array, display?: 'utf8' | 'hex'): Promise<{ signature: Uint8Array }>;
}

declare global {
  interface Window {
    ethereum?: EthereumProvider;
    solana?: SolanaProvider;
    phantom?: { solana?: SolanaProvider };
  }
}

/** A wallet the user connected: its address, a display name and a way to sign text. */
export interface ConnectedWallet {
  address: string;
  network: WalletType;
  /** A brand (MetaMask, Phantom) or null when the wallet does not say which it is. */
  brand: string | null;
  sign(message: string): Promise<string>;
}

/** EIP-1193 and Phantom both report a refusal by the user with code 4001. */
const USER_REJECTED = 4001;

function isUserRejection(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === USER_REJECTED;
}

function rejectionOr(error: unknown, otherwiseKey: string): UserFacingError {
  return new UserFacingError(isUserRejection(error) ? 'errors.walletConnectionFailedTryAgain' : otherwiseKey);
}

async function connectEthereum(): Promise<ConnectedWallet> {
  const provider = window.ethereum;
  if (!provider) throw new UserFacingError('errors.installEthereumWallet');
  let accounts: unknown;
  try {
    accounts = await provider.request({ method: 'eth_requestAccounts' });
  } catch (error) {
    throw rejectionOr(error, 'errors.walletConnectionFailed');
  }
  const address = Array.isArray(accounts) && typeof accounts[0] === 'string' ? accounts[0] : null;
  if (!address) throw new UserFacingError('errors.noAccountsFound');
  return {
    address,
    network: 'ethereum',
    brand: provider.isMetaMask ? 'MetaMask' : null,
    sign: async (message) => {
      try {
        const signature = await provider.request({ method: 'personal_sign', params: [hexUtf8(message), address] });
        if (typeof signature !== 'string') throw new Error('The wallet returned no signature');
        return signature;
      } catch (error) {
        throw rejectionOr(error, 'errors.walletConnectionFailed');
      }
    },
  };
}

async function connectSolana(): Promise<ConnectedWallet> {
  const provider = window.phantom?.solana ?? window.solana;
  if (!provider) throw new UserFacingError('errors.installSolanaWallet');
  let address: string;
  try {
    const { publicKey } = await provider.connect();
    address = publicKey.toString();
  } catch (error) {
    throw rejectionOr(error, 'errors.failedToConnect');
  }
  return {
    address,
    network: 'solana',
    brand: provider.isPhantom ? 'Phantom' : null,
    sign: async (message) => {
      try {
        const { signature } = await provider.signMessage(new TextEncoder().encode(message), 'utf8');
        return bs58.encode(signature);
      } catch (error) {
        throw rejectionOr(error, 'errors.walletConnectionFailed');
      }
    },
  };
}

export function connectWallet(network: WalletType): Promise<ConnectedWallet> {
  return network === 'ethereum' ? connectEthereum() : connectSolana();
}
