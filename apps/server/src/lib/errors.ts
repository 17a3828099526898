import {
  type ErrorCode,
  errorCatalogue,
  type ServerMessageKey,
  type ServerMessageParams,
  serverMessageText,
} from '@platform/contracts';

/**
 * An expected failure on its way to the edge. Services return `Result`s; a route unwraps them and
 * the error handler turns an AppError into the one error envelope with the catalogue's status.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: unknown;
  readonly statusCode: number;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    options: { message?: string; details?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(options.message ?? errorCatalogue[code].message);
    this.code = code;
    this.details = options.details;
    this.statusCode = errorCatalogue[code].status;
    this.headers = options.headers ?? {};
  }
}

/** `headers` are HTTP headers the failure answers with (Retry-After on a limit), set by the edge. */
export type Failure = {
  ok: false;
  code: ErrorCode;
  message?: string;
  details?: unknown;
  headers?: Record<string, string>;
};
export type Result<T> = { ok: true; value: T } | Failure;

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = (
  code: ErrorCode,
  extra: { message?: string; details?: unknown; headers?: Record<string, string> } = {},
): Failure => ({
  ok: false,
  code,
  ...extra,
});

/** The route's side of a Result: the value, or an AppError for the error handler. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new AppError(result.code, {
    ...(result.message !== undefined ? { message: result.message } : {}),
    ...(result.details !== undefined ? { details: result.details } : {}),
    ...(result.headers !== undefined ? { headers: result.headers } : {}),
  });
}

/**
 * A failure whose message carries values the user needs: the English message from the template,
 * and `details.text` and `details.params` (raw values) beside the other details, so a client can
 * show it in its own language (docs/i18n.md "Server texts").
 */
export function failWithText(
  code: ErrorCode,
  text: ServerMessageKey,
  params: ServerMessageParams,
  details: Record<string, unknown> = {},
): Failure {
  return fail(code, { message: serverMessageText(text, params), details: { ...details, text, params } });
}
