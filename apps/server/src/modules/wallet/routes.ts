import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { FeeContext } from './fees.ts';
import { walletFeeRoutes } from './routes/fees.ts';
import { walletReadRoutes } from './routes/reads.ts';
import { transferRoutes } from './routes/transfers.ts';
import type { TransferSettler, WalletDeps } from './transfers.ts';

/** Spec §7.2's wallet reads and §7.3's transfer calls, one group of routes per file under routes/. */
export function walletRoutes(
  scope: FastifyInstance,
  context: AppContext,
  deps: WalletDeps,
  settler: TransferSettler,
  fees: FeeContext,
) {
  walletReadRoutes(scope, context, deps);
  transferRoutes(scope, context, deps, settler);
  walletFeeRoutes(scope, context, fees);
}
