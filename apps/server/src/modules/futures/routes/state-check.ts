import { futuresStateCheckSchema } from '@platform/contracts';
import { requireAdmin } from '../../admin/trading-pairs.ts';
import { bearerAuth, errorResponses } from '../../auth/index.ts';
import { ReplayDivergence } from '../journal.ts';
import { type FuturesRouteContext, tags } from './shared.ts';

/**
 * GET /v1/admin/futures/state-check (admin): the exchange's memory, what a restart would load and
 * a clean replay of the journal, hashed and compared. It holds the futures queue while it runs.
 */
export function stateCheckRoute(routes: FuturesRouteContext): void {
  routes.app.get(
    '/v1/admin/futures/state-check',
    {
      ...routes.signedIn,
      preValidation: requireAdmin(routes.context),
      schema: {
        tags: [...tags, 'admin'],
        summary: 'Compare the futures memory, its rows and a replay of its journal (admin)',
        security: bearerAuth,
        response: { 200: futuresStateCheckSchema, ...errorResponses(401, 403) },
      },
    },
    async () => {
      try {
        return await routes.exchange.checkReplay();
      } catch (error) {
        if (!(error instanceof ReplayDivergence)) throw error;
        return { equal: false, memory: '', stored: '', replayed: '', differences: [error.message] };
      }
    },
  );
}
