import type { Config } from '../../config.ts';
import { LocalDiskObjectStore } from './local-disk.ts';
import type { ObjectStore } from './types.ts';

export { LocalDiskObjectStore } from './local-disk.ts';
export * from './types.ts';

/**
 * The store for KYC documents. Local disk is the only kind so far; an S3-compatible store would be
 * chosen here from the config.
 */
export function kycObjectStore(config: Pick<Config, 'kycStorageDir'>): ObjectStore {
  return new LocalDiskObjectStore(config.kycStorageDir);
}
