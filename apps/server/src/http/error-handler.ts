import { errorCatalogue, validationText } from '@platform/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError } from '../lib/errors.ts';

type Issue = { path: string; message: string; key?: string };

function toIssue(issue: { instancePath?: string; message?: string; params?: unknown }, context: string): Issue {
  const rawPath = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const raw = issue.message ?? 'Invalid value';
  const key = raw.startsWith('validation.') ? raw : undefined;
  return {
    path: rawPath || (context === 'body' ? '' : context),
    message: validationText(raw),
    ...(key ? { key } : {}),
  };
}

function send(reply: FastifyReply, status: number, code: string, message: string, details?: unknown) {
  return reply.status(status).send({ error: { code, message, ...(details === undefined ? {} : { details }) } });
}

/** Every failure leaves the server as `{error:{code,message,details}}`; only bugs are logged as errors. */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return send(reply, error.statusCode, error.code, error.message, error.details);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = error.validation.map((issue) => toIssue(issue, error.validationContext ?? 'body'));
      const first = issues[0];
      return send(reply, 400, 'VALIDATION_ERROR', first?.message ?? errorCatalogue.VALIDATION_ERROR.message, {
        issues,
      });
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error, issues: error.cause.issues }, 'response does not match its schema');
      return send(reply, 500, 'INTERNAL_ERROR', errorCatalogue.INTERNAL_ERROR.message);
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 429) {
      return send(reply, 429, 'RATE_LIMITED', errorCatalogue.RATE_LIMITED.message);
    }
    if (status === 413) return send(reply, 413, 'PAYLOAD_TOO_LARGE', errorCatalogue.PAYLOAD_TOO_LARGE.message);
    if (status === 415) {
      return send(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', errorCatalogue.UNSUPPORTED_MEDIA_TYPE.message);
    }
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type and the like: the client's fault, said plainly.
      return send(reply, status, 'VALIDATION_ERROR', error.message);
    }
    request.log.error({ err: error }, 'unhandled error');
    return send(reply, 500, 'INTERNAL_ERROR', errorCatalogue.INTERNAL_ERROR.message);
  });
}
