import { KYC_DOCUMENT_SLOTS } from '@platform/contracts';
import type { FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../../context.ts';
import { fail, ok, type Result, unwrap } from '../../../lib/errors.ts';
import { authenticate, currentAccount } from '../../auth/index.ts';
import { isReviewerRole, type KycDeps, roleOf } from '../service.ts';

export const tags = ['kyc'];

// Ids are opaque to callers: a malformed one is simply not found (404), like someone else's.
/** Longest id accepted in a path: a UUID is 36 characters; anything much longer is not one of ours. */
const MAX_ID_LENGTH = 64;
export const idParamsSchema = z.object({ id: z.string().max(MAX_ID_LENGTH) });
export const documentParamsSchema = z.object({ id: z.string().max(MAX_ID_LENGTH), slot: z.enum(KYC_DOCUMENT_SLOTS) });

export type ReviewerRole = 'compliance' | 'admin';

/** The reviewer's role as stored now (a role taken away counts at once): compliance and admin only. */
async function reviewerRole(deps: KycDeps, accountId: string): Promise<Result<ReviewerRole>> {
  const role = await roleOf(deps.db, accountId);
  return role && isReviewerRole(role) ? ok(role) : fail('FORBIDDEN');
}

/**
 * The hooks of the compliance routes: signed in, then a reviewer (403 for everyone else). The role
 * found is kept for the route, so a review records the role that admitted it.
 */
export function reviewerAccess(context: AppContext, deps: KycDeps) {
  const roles = new WeakMap<FastifyRequest, ReviewerRole>();
  const requireReviewer: preValidationAsyncHookHandler = async (request) => {
    roles.set(request, unwrap(await reviewerRole(deps, currentAccount(request).id)));
  };
  const roleOfRequest = (request: FastifyRequest): Result<ReviewerRole> => {
    const role = roles.get(request);
    return role ? ok(role) : fail('FORBIDDEN');
  };
  return { hooks: { onRequest: authenticate(context), preValidation: requireReviewer }, roleOfRequest };
}

export type ReviewerAccess = ReturnType<typeof reviewerAccess>;
