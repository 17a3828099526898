import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Placeholder: being built (issue 5). */
export function conversionsModule(_app: FastifyInstance, _context: AppContext): void {}
