import {
  accountIdParamsSchema,
  accountSchema,
  createAccountRequestSchema,
  registrationResponseSchema,
  updateProfileRequestSchema,
  verifyEmailRequestSchema,
  verifyEmailResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createMailer } from '../../adapters/mailer/mailer.ts';
import type { AppContext } from '../../context.ts';
import { unwrap } from '../../lib/errors.ts';
import {
  AttemptLimiter,
  authenticate,
  bearerAuth,
  errorResponses,
  ipRateLimit,
  rateLimited,
  requireAccountOwner,
} from '../auth/index.ts';
import { REGISTRATION_IP_LIMIT, VERIFICATION_MAILS_PER_ACCOUNT, VERIFY_EMAIL_IP_LIMIT } from '../auth/limits.ts';
import { confirmEmail, sendVerificationMail } from './email-verification.ts';
import { registerByEmail } from './registration.ts';
import { getAccount, updateProfile } from './service.ts';

const tags = ['accounts'];

/** Accounts: registration, the account itself, its profile and email verification. */
export function accountsModule(scope: FastifyInstance, context: AppContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db, config, clock } = context;
  const mailer = createMailer(config, clock);
  const mailLimiter = new AttemptLimiter(VERIFICATION_MAILS_PER_ACCOUNT, clock);
  const registration = {
    db,
    mailer,
    log: context.log,
    publicUrl: config.publicUrl,
    noticeLimiter: new AttemptLimiter(VERIFICATION_MAILS_PER_ACCOUNT, clock),
  };
  const owner = { onRequest: authenticate(context), preValidation: requireAccountOwner };
  const ownerErrors = errorResponses(400, 401, 403, 404);

  app.post(
    '/v1/accounts',
    {
      config: ipRateLimit(config, REGISTRATION_IP_LIMIT),
      schema: {
        tags,
        summary: 'Create an account with email and password; a taken email gets the same answer and its owner a mail',
        body: createAccountRequestSchema,
        response: { 201: registrationResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) =>
      reply.status(201).send(unwrap(await registerByEmail(registration, request.body, clock()))),
  );

  app.get(
    '/v1/accounts/:id',
    {
      ...owner,
      schema: {
        tags,
        summary: 'The signed-in account',
        security: bearerAuth,
        params: accountIdParamsSchema,
        response: { 200: accountSchema, ...ownerErrors },
      },
    },
    async (request) => unwrap(await getAccount(db, request.params.id)),
  );

  app.put(
    '/v1/accounts/:id/profile',
    {
      ...owner,
      schema: {
        tags,
        summary: 'Change profile fields; absent fields stay, null clears',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: updateProfileRequestSchema,
        response: { 200: accountSchema, ...ownerErrors, ...errorResponses(409) },
      },
    },
    async (request) => unwrap(await updateProfile(db, request.params.id, request.body, clock())),
  );

  app.post(
    '/v1/accounts/:id/verify',
    {
      ...owner,
      config: ipRateLimit(config, VERIFY_EMAIL_IP_LIMIT),
      schema: {
        tags,
        summary: 'Email verification: {} mails a link, {token} (from the link) verifies',
        security: bearerAuth,
        params: accountIdParamsSchema,
        body: verifyEmailRequestSchema.nullish(),
        response: { 200: verifyEmailResponseSchema, ...ownerErrors, ...errorResponses(409, 429) },
      },
    },
    async (request) => {
      const id = request.params.id;
      const token = request.body?.token;
      if (token !== undefined) return unwrap(await confirmEmail(db, id, token, clock()));
      const retryAfter = mailLimiter.retryAfterSeconds(id);
      if (retryAfter > 0) return unwrap(rateLimited(retryAfter));
      const sent = unwrap(await sendVerificationMail({ db, mailer, publicUrl: config.publicUrl }, id, clock()));
      // Every mail sent spends the budget, as a failed attempt would.
      mailLimiter.recordFailure(id);
      return sent;
    },
  );
}
