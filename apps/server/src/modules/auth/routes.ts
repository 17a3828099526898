import {
  loginRequestSchema,
  logoutRequestSchema,
  refreshRequestSchema,
  sessionResponseSchema,
  walletChallengeRequestSchema,
  walletChallengeResponseSchema,
  walletRegisterRequestSchema,
  walletRegisterResponseSchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { TypedApp } from '../../http/typed-app.ts';
import { unwrap } from '../../lib/errors.ts';
import type { AuthDeps } from './deps.ts';
import {
  ipRateLimit,
  LOGIN_IP_LIMIT,
  REFRESH_IP_LIMIT,
  REGISTRATION_IP_LIMIT,
  WALLET_CHALLENGE_IP_LIMIT,
} from './limits.ts';
import { errorResponses } from './openapi.ts';
import { noteSessionDevice, presentedRefreshToken } from './routes/security-shared.ts';
import { loginWithEmail, loginWithWallet, logout, refreshSession, registerWallet } from './service.ts';
import { clearRefreshCookie, setRefreshCookie } from './session.ts';
import { createWalletChallenge } from './wallet-challenges.ts';

const tags = ['auth'];

/** Sign-in by email or wallet, wallet registration, and the refresh and logout of a session. */
export function authRoutes(scope: FastifyInstance, context: AppContext, deps: AuthDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  signInRoutes(app, context, deps);
  sessionTokenRoutes(app, context, deps);
}

/** Routes that start a session: email or wallet sign-in, and a wallet's first registration. */
function signInRoutes(app: TypedApp, context: AppContext, deps: AuthDeps): void {
  const { config } = context;

  app.post(
    '/v1/auth/login',
    {
      config: ipRateLimit(config, LOGIN_IP_LIMIT),
      schema: {
        tags,
        summary: 'Sign in with email and password (and 2FA code), or with a signed wallet challenge',
        body: loginRequestSchema,
        response: { 200: sessionResponseSchema, ...errorResponses(400, 401, 404, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const result = body.login_type === 'email' ? await loginWithEmail(deps, body) : await loginWithWallet(deps, body);
      const session = unwrap(result);
      await noteSessionDevice(context, request, session.refresh_token);
      setRefreshCookie(reply, config, session.refresh_token);
      return session;
    },
  );

  app.post(
    '/v1/auth/wallet-challenge',
    {
      config: ipRateLimit(config, WALLET_CHALLENGE_IP_LIMIT),
      schema: {
        tags,
        summary: 'Get a single-use message (EIP-4361 or Sign-In-With-Solana) for the wallet to sign',
        body: walletChallengeRequestSchema,
        response: { 200: walletChallengeResponseSchema, ...errorResponses(400, 429) },
      },
    },
    async (request) => unwrap(await createWalletChallenge(deps, request.body, context.clock())),
  );

  app.post(
    '/v1/auth/wallet-register',
    {
      config: ipRateLimit(config, REGISTRATION_IP_LIMIT),
      schema: {
        tags,
        summary: 'Create an account for a wallet from a signed challenge, and sign it in',
        body: walletRegisterRequestSchema,
        response: { 201: walletRegisterResponseSchema, ...errorResponses(400, 401, 409, 429) },
      },
    },
    async (request, reply) => {
      const registered = unwrap(await registerWallet(deps, request.body));
      await noteSessionDevice(context, request, registered.refresh_token);
      setRefreshCookie(reply, config, registered.refresh_token);
      return reply.status(201).send(registered);
    },
  );
}

/** Routes of a running session's refresh token: renewing it, and ending it. */
function sessionTokenRoutes(app: TypedApp, context: AppContext, deps: AuthDeps): void {
  const { config } = context;

  app.post(
    '/v1/auth/refresh',
    {
      config: ipRateLimit(config, REFRESH_IP_LIMIT),
      schema: {
        tags,
        summary: 'Exchange a refresh token (body or cookie) for a new token pair; a reused token ends the session',
        body: refreshRequestSchema.nullish(),
        response: { 200: sessionResponseSchema, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => {
      const result = await refreshSession(deps, presentedRefreshToken(request, request.body));
      if (!result.ok) clearRefreshCookie(reply, config);
      // A reused refresh token means a copy is in someone else's hands: worth a look in the logs.
      if (!result.ok && result.code === 'REFRESH_TOKEN_REUSED')
        request.log.warn('refresh token reused; session revoked');
      const session = unwrap(result);
      setRefreshCookie(reply, config, session.refresh_token);
      return session;
    },
  );

  app.post(
    '/v1/auth/logout',
    {
      config: ipRateLimit(config, REFRESH_IP_LIMIT),
      schema: {
        tags,
        summary: 'End the session of a refresh token (body or cookie) and clear the cookie',
        body: logoutRequestSchema.nullish(),
        response: { 204: z.null().describe('Signed out'), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await logout(deps, presentedRefreshToken(request, request.body));
      clearRefreshCookie(reply, config);
      return reply.status(204).send(null);
    },
  );
}
