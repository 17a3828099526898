import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ErrorCode, errorCatalogue, validationText } from '@platform/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
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

/** What the router refuses before any route or hook runs, mapped onto the catalogue. */
const FRAMEWORK_ERRORS: Record<string, ErrorCode> = {
  FST_ERR_MAX_PARAM_LENGTH: 'URI_TOO_LONG',
  FST_ERR_BAD_URL: 'URL_INVALID',
};

/**
 * Fastify's `frameworkErrors` option: an over-long path parameter (414) or a path that does not
 * decode (400) answers the one error envelope too, not Fastify's own body.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, _request, reply) => {
  const code = FRAMEWORK_ERRORS[error.code] ?? 'MALFORMED_REQUEST';
  return send(reply, errorCatalogue[code].status, code, errorCatalogue[code].message);
};

const CLIENT_ERRORS: Record<string, ErrorCode> = {
  HPE_HEADER_OVERFLOW: 'REQUEST_HEADERS_TOO_LARGE',
  ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
};

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (headers too large, a timeout,
 * a malformed request line) never reach Fastify, so the envelope is written to the socket here.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const code = CLIENT_ERRORS[error.code ?? ''] ?? 'MALFORMED_REQUEST';
    const { status, message } = errorCatalogue[code];
    const body = JSON.stringify({ error: { code, message } });
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
