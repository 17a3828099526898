import type { WebsocketPluginOptions } from '@fastify/websocket';
import { SOCKET_PATH, socketStatsSchema } from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RawData } from 'ws';
import type { AppContext } from '../context.ts';
import { SocketGateway } from './gateway.ts';
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
  const gateway = new SocketGateway({ pubsub: context.pubsub, clock: context.clock, log: context.log });
  const heartbeat = setInterval(() => gateway.heartbeat(), gateway.limits.heartbeatIntervalMs);
  heartbeat.unref();
  app.addHook('onClose', async () => {
    clearInterval(heartbeat);
    gateway.close();
  });

  app.get(SOCKET_PATH, { websocket: true }, (socket, request) => {
    const connection = gateway.open(socket, { address: request.ip });
    if (!connection) return;
    socket.on('message', (data, isBinary) => connection.receive(isBinary ? undefined : text(data)));
    socket.on('pong', () => connection.pong());
    socket.on('close', () => gateway.disconnect(connection));
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

function text(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  return Buffer.from(new Uint8Array(data)).toString('utf8');
}
