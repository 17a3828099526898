import {
  notificationIdParamsSchema,
  notificationListSchema,
  notificationSchema,
  notificationsChangedSchema,
  notificationsQuerySchema,
} from '@platform/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { unwrap } from '../../lib/errors.ts';
import { authenticate, bearerAuth, currentAccount, errorResponses } from '../auth/index.ts';
import { clearNotifications, deleteNotification, listNotifications, markAllRead, markRead } from './service.ts';
import type { UnreadCounts } from './unread-count.ts';

const tags = ['notifications'];

/** The signed-in user's stored notifications (spec §3.8, §4): list, mark read, delete, clear. */
export function notificationsModule(scope: FastifyInstance, context: AppContext, counts: UnreadCounts): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { db } = context;
  const signedIn = { onRequest: authenticate(context) };

  app.get(
    '/v1/notifications',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Your notifications, newest first, with the number unread',
        security: bearerAuth,
        querystring: notificationsQuerySchema,
        response: { 200: notificationListSchema, ...errorResponses(400, 401) },
      },
    },
    async (request) => listNotifications(counts, db, currentAccount(request).id, request.query),
  );

  app.post(
    '/v1/notifications/read-all',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Mark all your notifications read',
        security: bearerAuth,
        response: { 200: notificationsChangedSchema, ...errorResponses(401) },
      },
    },
    async (request) => markAllRead(counts, db, currentAccount(request).id),
  );

  app.post(
    '/v1/notifications/:id/read',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Mark one notification read',
        security: bearerAuth,
        params: notificationIdParamsSchema,
        response: { 200: notificationSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => unwrap(await markRead(counts, db, currentAccount(request).id, request.params.id)),
  );

  app.delete(
    '/v1/notifications/:id',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete one notification',
        security: bearerAuth,
        params: notificationIdParamsSchema,
        response: { 204: z.null().describe('Deleted'), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      unwrap(await deleteNotification(counts, db, currentAccount(request).id, request.params.id));
      return reply.status(204).send(null);
    },
  );

  app.delete(
    '/v1/notifications',
    {
      ...signedIn,
      schema: {
        tags,
        summary: 'Delete all your notifications',
        security: bearerAuth,
        response: { 200: notificationsChangedSchema, ...errorResponses(401) },
      },
    },
    async (request) => clearNotifications(counts, db, currentAccount(request).id),
  );
}
