import type { AppContext, ModuleParts } from '../../context.ts';
import { SecretBox } from '../../lib/secret-box.ts';
import { accessTokenKey } from './access-tokens.ts';
import type { AccountCredentials } from './account-credentials.ts';
import { accountSecurityRoutes } from './account-security-routes.ts';
import { AttemptBudget } from './attempt-budget.ts';
import type { AuthDeps } from './deps.ts';
import { LOGIN_FAILURES_PER_ACCOUNT, TWO_FACTOR_FAILURES_PER_ACCOUNT } from './limits.ts';
import { authRoutes } from './routes.ts';
import { twoFactorRoutes } from './two-factor-routes.ts';

export type { AuthenticatedAccount } from './access-tokens.ts';
export { AttemptBudget, withAttempt } from './attempt-budget.ts';
export { AttemptLimiter } from './attempt-limiter.ts';
export { authenticate, currentAccount, ownAccountId, requireAccountOwner } from './guard.ts';
export { ipRateLimit, rateLimited } from './limits.ts';
export { bearerAuth, errorResponses } from './openapi.ts';

/** Sign-in, sessions and two-factor authentication. */
export function createAuth(context: AppContext, { accounts }: { accounts: AccountCredentials }): ModuleParts {
  const deps: AuthDeps = {
    db: context.db,
    config: context.config,
    clock: context.clock,
    signing: accessTokenKey(context.secrets.jwtSecret, context.config.accessTokenTtlSeconds),
    loginAttempts: new AttemptBudget(context.db, LOGIN_FAILURES_PER_ACCOUNT, context.clock),
    twoFactorAttempts: new AttemptBudget(context.db, TWO_FACTOR_FAILURES_PER_ACCOUNT, context.clock),
    secretBox: new SecretBox(context.secrets.dataKey),
    accounts,
  };
  return {
    routes: (scope) => {
      authRoutes(scope, context, deps);
      twoFactorRoutes(scope, context, deps);
      accountSecurityRoutes(scope, context, deps);
    },
  };
}
