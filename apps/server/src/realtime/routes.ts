import type { WebsocketPluginOptions } from '@fastify/websocket';
import { SOCKET_PATH, socketStatsSchema } from '@platform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { decodeJwt } from 'jose';
import type { RawData } from 'ws';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { type AuthenticatedAccount, accessTokenKey, verifyAccessToken } from '../modules/auth/access-tokens.ts';
import { accountStates } from '../modules/auth/account-state.ts';
import { sessionCurrent } from '../modules/auth/session-versions.ts';
import { SocketGateway, type TokenCheck } from './gateway.ts';
import { SOCKET_LIMITS } from './limits.ts';

/** Options of @fastify/websocket, registered once on the root instance (app.ts). */
export const websocketPluginOptions: WebsocketPluginOptions = {
  // ws refuses a larger frame with close code 1009 before buffering it.
  options: { maxPayload: SOCKET_LIMITS.maxMessageBytes },
  // An established socket's errors are the peer's doing (reset, oversized or malformed frame);
  // ws closes the socket itself, so they are worth a debug line, not an error.
  errorHandler(error, _socket, request) {
    request.log.debug({ err: error }, 'socket error');
  },
};

/** The product socket at /ws (spec §7.6) and its statistics at /ws/stats (spec §7.2). */
export function realtimeModule(scope: FastifyInstance, context: AppContext): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const gateway = new SocketGateway({
    pubsub: context.pubsub,
    clock: context.clock,
    log: context.log,
    verifyToken: tokenVerifier(context),
  });
  const heartbeat = setInterval(() => gateway.heartbeat(), gateway.limits.heartbeatIntervalMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    gateway.close();
  });

  // Browsers cannot set headers on a socket, so the token may come in the URL: the access log of
  // this route shows the URL without it.
  app.get(SOCKET_PATH, { websocket: true, logSerializers: { req: requestWithoutToken } }, (socket, request) => {
    const connection = gateway.open(socket, { address: request.ip });
    if (!connection) return;
    // Listeners first, then the token check: frames that arrive during it wait in the connection.
    socket.on('message', (data, isBinary) => connection.receive(isBinary ? undefined : text(data)));
    socket.on('pong', () => connection.pong());
    socket.on('close', () => gateway.disconnect(connection));
    const token = connectToken(request);
    if (token !== undefined) void connection.authenticate(token);
  });

  app.get(
    `${SOCKET_PATH}/stats`,
    {
      schema: {
        tags: ['realtime'],
        summary: 'Connections, subscriptions and channels of this node’s socket gateway',
        response: { 200: socketStatsSchema },
      },
    },
    async () => gateway.stats(),
  );
}

/** The same check as the HTTP guard's: signature, issuer, audience and expiry on the server clock. */
function tokenVerifier(context: AppContext): (token: string) => Promise<TokenCheck> {
  const signing = accessTokenKey(context.secrets.jwtSecret, context.config.accessTokenTtlSeconds);
  const states = accountStates(context);
  return async (token) => {
    const now = context.clock();
    const result = await verifyAccessToken(signing, token, now);
    // A frozen or deleted account's token proves nothing, as at the HTTP guard; nor does a token of
    // ended sessions (auth/session-versions.ts).
    if (result.ok && (await states.of(result.value.id)) !== 'active') return { ok: false, reason: 'invalid' };
    if (result.ok && !(await sessionIsCurrent(context, result.value, now))) return { ok: false, reason: 'invalid' };
    if (result.ok) {
      // The signature was just checked, so reading the expiry claim without checking again is safe.
      const { exp } = decodeJwt(token);
      return { ok: true, accountId: result.value.id, ...(exp === undefined ? {} : { expiresAtMs: exp * 1000 }) };
    }
    return { ok: false, reason: result.code === 'TOKEN_EXPIRED' ? 'expired' : 'invalid' };
  };
}

async function sessionIsCurrent(context: AppContext, account: AuthenticatedAccount, now: Date): Promise<boolean> {
  return (await sessionCurrent(context.db, account, now)).ok;
}

const connectQuerySchema = z.object({ token: z.string().min(1).max(4096).optional() });
const BEARER = /^Bearer (\S+)$/i;

/** A token given at connect: `?token=` (browsers), or an Authorization header (other clients). */
function connectToken(request: FastifyRequest): string | undefined {
  const query = connectQuerySchema.safeParse(request.query);
  if (query.success && query.data.token !== undefined) return query.data.token;
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

function requestWithoutToken(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(/([?&]token=)[^&]*/gi, '$1[redacted]'),
    remoteAddress: request.ip,
  };
}

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(new Uint8Array(data)).toString('utf8');
}
