import { v, validationText } from '@platform/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';

const NUL = '\u0000';
/** Deeper than any request schema nests; a body nested further is refused by its schema anyway. */
const MAX_DEPTH = 32;

/** The dotted path of the first string (or object key) holding a NUL character, or null. */
export function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return null;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path === '' ? key : `${path}.${key}`;
    if (key.includes(NUL)) return itemPath;
    const found = findNul(item, itemPath, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

function nulPath(request: FastifyRequest): string | null {
  return findNul(request.params, '') ?? findNul(request.query, '') ?? findNul(request.body, '');
}

/**
 * Refuses a NUL character in any path parameter, query parameter or JSON string with one clear 400,
 * before the route's schema runs: PostgreSQL cannot store it in text (it would answer a 500), and
 * no real name, address or id contains it. Registered on the root, so every route has it.
 */
export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const path = nulPath(request);
    if (path === null) return;
    const message = validationText(v('nulCharacter'));
    throw new AppError('VALIDATION_ERROR', {
      message,
      details: { issues: [{ path, message, key: v('nulCharacter') }] },
    });
  });
}
