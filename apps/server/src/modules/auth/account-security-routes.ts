import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from '../../adapters/mailer/mailer.ts';
import type { AppContext } from '../../context.ts';
import { AttemptLimiter } from './attempt-limiter.ts';
import type { AuthDeps } from './deps.ts';
import type { PasswordResetDeps } from './password-reset.ts';
import { changePasswordRoute } from './routes/change-password.ts';
import { passwordResetConfirmRoute } from './routes/password-reset-confirm.ts';
import { passwordResetRequestRoute } from './routes/password-reset-request.ts';
import { revokeOtherSessionsRoute } from './routes/revoke-other-sessions.ts';
import { revokeSessionRoute } from './routes/revoke-session.ts';
import { sessionsRoute } from './routes/sessions.ts';

export { PASSWORD_RESET_IP_LIMIT } from './routes/password-reset-request.ts';

const HOUR_MS = 60 * 60 * 1000;
/** Three reset mails per address an hour: enough to ask again, too few to flood an inbox. */
export const RESET_MAILS_PER_EMAIL = { maxFailures: 3, windowMs: HOUR_MS };

/** Password reset, change of password and the sessions list (docs/auth.md, "Account security"), one file each. */
export function accountSecurityRoutes(scope: FastifyInstance, context: AppContext, deps: AuthDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { config, db, clock } = context;
  const mailer = createMailer(config, clock);
  const resetDeps: PasswordResetDeps = {
    db,
    mailer,
    publicUrl: config.publicUrl,
    clock,
    log: context.log,
    resetMailLimiter: new AttemptLimiter(RESET_MAILS_PER_EMAIL, clock),
    loginAttempts: deps.loginAttempts,
    accounts: deps.accounts,
  };
  passwordResetRequestRoute(app, context, resetDeps);
  passwordResetConfirmRoute(app, context, resetDeps);
  changePasswordRoute(app, context, deps, mailer);
  sessionsRoute(app, context);
  revokeSessionRoute(app, context, deps);
  revokeOtherSessionsRoute(app, context, deps);
}
