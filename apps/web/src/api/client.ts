import {
  errorEnvelopeSchema,
  type FieldIssue,
  fieldIssueSchema,
  MAIN_API_TIMEOUT_MS,
  sessionResponseSchema,
} from '@platform/contracts';
import { z } from 'zod';

/** A failed call: the server's error envelope, or a local code for network trouble. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: unknown;
  /** A refusal's Retry-After (429): how long the server asks us to wait before asking again. */
  readonly retryAfterMs: number | undefined;

  constructor(status: number, code: string, message: string, details?: unknown, retryAfterMs?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfterMs = retryAfterMs;
  }

  /** The field problems of a VALIDATION_ERROR, or none. */
  get issues(): FieldIssue[] {
    const parsed = z.object({ issues: z.array(fieldIssueSchema) }).safeParse(this.details);
    return parsed.success ? parsed.data.issues : [];
  }

  /** True when the request never got an answer (offline, refused, timed out). */
  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions<T> {
  method?: HttpMethod;
  body?: unknown;
  /** Parses the answer at the boundary; without it the call resolves to undefined. */
  schema?: z.ZodType<T>;
  /** Extra request headers (an Idempotency-Key); they travel again on the retry after a refresh. */
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  baseUrl?: string;
  timeoutMs?: number;
  /** Resolved on every call so that tests and the browser can swap it. */
  fetch?: () => typeof fetch;
  getAccessToken: () => string | null;
  onAccessToken: (token: string) => void;
  /** Refresh failed: the stored token must go and listeners must hear about the logout. */
  onSessionExpired: () => void;
}

interface RawResponse {
  status: number;
  data: unknown;
  retryAfterMs?: number;
  /** The body of a successful file download. */
  file?: DownloadedFile;
}

/** A file the server sent (a CSV export): its body and the name its Content-Disposition suggests. */
export type DownloadedFile = { blob: Blob; filename: string | null };

/**
 * How long a file download may take, body included: an export of a long history is streamed as
 * the server reads it, far longer than a JSON call's timeout.
 */
export const DOWNLOAD_TIMEOUT_MS = 120_000;

/** How a call reads its answer: JSON (every API call) or a file (a download). */
type ReadAs = 'json' | 'file';

export interface ApiClient {
  request<T = undefined>(path: string, options?: RequestOptions<T>): Promise<T>;
  /** A GET whose answer is a file, with the same bearer token, refresh and errors as request(). */
  download(path: string): Promise<DownloadedFile>;
}

/** The file name of a Content-Disposition header (`attachment; filename="x.csv"`), or null. */
export function attachmentFilename(header: string | null): string | null {
  const match = header === null ? null : /filename="([^"\\/]+)"/.exec(header);
  return match?.[1] ?? null;
}

const REFRESH_PATH = '/v1/auth/refresh';

/** The /v1/auth calls made with a bearer token: a 401 there is about the session, as anywhere else. */
const SIGNED_IN_AUTH_PATH = /^\/v1\/auth\/sessions(?:[/?]|$)/;

/**
 * Spec §7.8: a 401 on the main client means the access token is gone. Sign-in calls answer 401 for
 * wrong credentials, and futures calls keep their own handling, so neither triggers a refresh.
 */
export function shouldRefreshOn401(path: string): boolean {
  if (path.includes('/futures/')) return false;
  return !path.startsWith('/v1/auth/') || SIGNED_IN_AUTH_PATH.test(path);
}

/**
 * The 401 codes that say the access token itself is no good (missing, expired, or its sessions
 * ended). Any other 401 code is about what the user typed (a wrong 2FA code, a wrong password) and
 * must not end a working session; an answer without our envelope counts as a session failure.
 */
export const SESSION_FAILURE_CODES: ReadonlySet<string> = new Set(['UNAUTHORIZED', 'TOKEN_EXPIRED', 'SESSION_REVOKED']);

export function isSessionFailure(status: number, data: unknown): boolean {
  if (status !== 401) return false;
  const envelope = errorEnvelopeSchema.safeParse(data);
  return !envelope.success || SESSION_FAILURE_CODES.has(envelope.data.error.code);
}

export function createApiClient(options: ApiClientOptions): ApiClient {
  const baseUrl = options.baseUrl ?? '';
  const timeoutMs = options.timeoutMs ?? MAIN_API_TIMEOUT_MS;
  const fetchImpl = options.fetch ?? (() => globalThis.fetch.bind(globalThis));
  let refreshInFlight: Promise<boolean> | null = null;

  async function send(
    path: string,
    method: HttpMethod,
    body: unknown,
    token: string | null,
    extraHeaders: Record<string, string> = {},
    readAs: ReadAs = 'json',
  ): Promise<RawResponse> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), readAs === 'file' ? DOWNLOAD_TIMEOUT_MS : timeoutMs);
    const accept = readAs === 'file' ? 'text/csv, application/json' : 'application/json';
    const headers: Record<string, string> = { ...extraHeaders, Accept: accept };
    // A FormData body (uploads) goes as multipart: the browser writes its Content-Type and boundary.
    const multipart = typeof FormData !== 'undefined' && body instanceof FormData;
    if (body !== undefined && !multipart) headers['Content-Type'] = 'application/json';
    if (token) headers.Authorization = `Bearer ${token}`;
    try {
      // The session refresh is the main API's, whatever base this client has (the provider's).
      const url = path === REFRESH_PATH ? path : `${baseUrl}${path}`;
      const response = await fetchImpl()(url, {
        method,
        headers,
        body: body === undefined ? undefined : multipart ? (body as FormData) : JSON.stringify(body),
        credentials: 'include',
        signal: controller.signal,
      });
      return await readResponse(response, readAs);
    } catch (error) {
      const code = controller.signal.aborted ? 'TIMEOUT' : 'NETWORK_ERROR';
      throw new ApiError(0, code, 'Network error occurred', { cause: String(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** One refresh at a time: concurrent 401s wait for the same attempt. */
  function refreshSession(): Promise<boolean> {
    refreshInFlight ??= (async () => {
      try {
        const raw = await send(REFRESH_PATH, 'POST', {}, null);
        if (raw.status < 200 || raw.status >= 300) return false;
        const session = sessionResponseSchema.safeParse(raw.data);
        if (!session.success) return false;
        options.onAccessToken(session.data.token);
        return true;
      } catch {
        return false;
      } finally {
        refreshInFlight = null;
      }
    })();
    return refreshInFlight;
  }

  /** Sends with the current token; one refresh and retry when the session has lapsed; errors thrown. */
  async function answered(
    path: string,
    method: HttpMethod,
    body: unknown,
    headers: Record<string, string> = {},
    readAs: ReadAs = 'json',
  ) {
    let raw = await send(path, method, body, options.getAccessToken(), headers, readAs);
    if (isSessionFailure(raw.status, raw.data) && shouldRefreshOn401(path)) {
      const refreshed = await refreshSession();
      if (refreshed) raw = await send(path, method, body, options.getAccessToken(), headers, readAs);
      if (!refreshed || isSessionFailure(raw.status, raw.data)) options.onSessionExpired();
    }
    if (raw.status < 200 || raw.status >= 300) throw toApiError(raw);
    return raw;
  }

  async function request<T>(path: string, requestOptions: RequestOptions<T> = {}): Promise<T> {
    const raw = await answered(path, requestOptions.method ?? 'GET', requestOptions.body, requestOptions.headers);
    if (!requestOptions.schema) return undefined as T;
    const parsed = requestOptions.schema.safeParse(raw.data);
    if (!parsed.success) {
      throw new ApiError(raw.status, 'INVALID_RESPONSE', 'Unexpected response from the server', parsed.error.issues);
    }
    return parsed.data;
  }

  async function download(path: string): Promise<DownloadedFile> {
    const raw = await answered(path, 'GET', undefined, {}, 'file');
    if (raw.file === undefined)
      throw new ApiError(raw.status, 'INVALID_RESPONSE', 'Unexpected response from the server');
    return raw.file;
  }

  return { request, download };
}

/** An answer's body: a file when one was asked for and sent, else JSON (an error envelope included). */
async function readResponse(response: Response, readAs: ReadAs): Promise<RawResponse> {
  if (readAs === 'file' && response.ok) {
    const filename = attachmentFilename(response.headers.get('content-disposition'));
    return { status: response.status, data: undefined, file: { blob: await response.blob(), filename } };
  }
  const text = await response.text();
  const retryAfterMs = retryAfterHeaderMs(response.headers.get('retry-after'));
  return {
    status: response.status,
    data: text.length > 0 ? safeJson(text) : undefined,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Retry-After in seconds (the server's form; an HTTP date is not used by it) as milliseconds. */
function retryAfterHeaderMs(value: string | null): number | undefined {
  if (value === null || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value.trim()) * 1000;
}

function toApiError(raw: RawResponse): ApiError {
  const envelope = errorEnvelopeSchema.safeParse(raw.data);
  if (envelope.success) {
    const { code, message, details } = envelope.data.error;
    return new ApiError(raw.status, code, message, details, raw.retryAfterMs);
  }
  return new ApiError(
    raw.status,
    'HTTP_ERROR',
    `Request failed with status ${raw.status}`,
    undefined,
    raw.retryAfterMs,
  );
}
