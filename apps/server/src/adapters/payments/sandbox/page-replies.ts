import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** What the sandbox's page and control routes share: their tags, id shapes and HTML replies. */

export const SANDBOX_TAGS = ['sandbox'];
/** Longer than any sandbox id (a prefix and a random part) or reference a caller sends. */
const MAX_ID_LENGTH = 200;
export const idSchema = z.string().min(1).max(MAX_ID_LENGTH);
export const paymentHashSchema = z.string().regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lower-case hex characters' });

export const CONTROL_TEXT = {
  not_found: { status: 404, title: 'Payment not found', text: 'There is no sandbox payment with this id.' },
  not_pending: { status: 409, title: 'Nothing to do', text: 'This payment can no longer be changed.' },
  expired: { status: 409, title: 'Payment expired', text: 'This payment has expired.' },
} as const;

export function html(reply: FastifyReply, status: number, body: string) {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(body);
}
