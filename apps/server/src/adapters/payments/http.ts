import crypto from 'node:crypto';
import { canonical, DEFAULT_MAX_AMOUNT_SCALE, parsePositive } from './amounts.ts';
import { ProviderError, type ProviderName } from './types.ts';

/**
 * The one way the real adapters call their provider: a timeout on every call, HTTP > 299 turned
 * into a ProviderError (retryable on 5xx, 429 and network failures, so callers may fall back or try
 * again), and JSON bodies whose amounts are exact numbers, never floats.
 */

/** Spec §9: the payment API gets 30 s. */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 30_000;

export type ProviderCall = {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | undefined>;
  headers?: Record<string, string>;
  /** Sent as JSON; amounts wrapped in JsonDecimal are written as exact JSON numbers. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (OAuth). */
  form?: Record<string, string>;
};

export type ProviderAnswer = { status: number; body: unknown; text: string };

export type ProviderClientOptions = {
  provider: ProviderName;
  baseUrl: string;
  timeoutMs: number;
  /** What the provider said went wrong, from an error body (its code and message). */
  describeError: (body: unknown) => { code?: string; message?: string };
};

/** Longest provider answer read: every documented answer is a few kilobytes. */
const MAX_ANSWER_BYTES = 1_048_576;
/** What of a provider's error is kept for logs and the 502's cause: enough to read, too little to flood a log line. */
export const MAX_ERROR_BODY_CHARS = 200;
export const MAX_ERROR_CODE_CHARS = 100;
export const MAX_ERROR_MESSAGE_CHARS = 500;
/** Digits on each side of the point an amount sent as a JSON number may have: more than any amount, bounded. */
const MAX_JSON_DECIMAL_DIGITS = 30;

export async function callProvider(options: ProviderClientOptions, call: ProviderCall): Promise<ProviderAnswer> {
  const { provider } = options;
  const url = new URL(options.baseUrl + call.path);
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) url.searchParams.set(key, value);
  }
  const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
  let body: string | undefined;
  if (call.form !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(call.form).toString();
  } else if (call.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = stringifyWithDecimals(call.json);
  }

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: call.method,
      headers,
      ...(body !== undefined ? { body } : {}),
      signal: AbortSignal.timeout(options.timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new ProviderError(
      timedOut
        ? `${provider} did not answer ${call.method} ${call.path} within ${options.timeoutMs} ms`
        : `${provider} is unreachable (${call.method} ${call.path}): ${error instanceof Error ? error.message : String(error)}`,
      { provider, retryable: true, delivered: !timedOut && neverConnected(error) ? 'no' : 'maybe' },
    );
  }
  if (text.length > MAX_ANSWER_BYTES) {
    throw new ProviderError(`${provider} answered ${call.method} ${call.path} with an oversized body`, {
      provider,
      status: response.status,
      retryable: false,
    });
  }
  const parsed = parseJson(text);
  if (response.status > 299) {
    const described = options.describeError(parsed);
    throw new ProviderError(
      described.message
        ? `${provider}: ${described.message} (HTTP ${response.status})`
        : `${provider} answered ${call.method} ${call.path} with HTTP ${response.status}`,
      {
        provider,
        status: response.status,
        ...(described.code ? { code: described.code } : {}),
        retryable: response.status >= 500 || response.status === 429,
        // A 5xx may come after the provider acted (a gateway timing out in front of it).
        delivered: response.status >= 500 ? 'maybe' : 'no',
      },
    );
  }
  return { status: response.status, body: parsed, text };
}

/**
 * A provider's bearer token, reused until it is due for renewal. One request for a new token is
 * shared by every call waiting for it.
 */
export class BearerToken {
  #token: { value: string; renewAtMs: number } | null = null;
  #request: Promise<string> | null = null;

  constructor(
    private readonly issue: () => Promise<{ value: string; renewAtMs: number }>,
    private readonly now: () => Date,
  ) {}

  async value(): Promise<string> {
    if (this.#token && this.now().getTime() < this.#token.renewAtMs) return this.#token.value;
    this.#request ??= this.issue()
      .then((token) => {
        this.#token = token;
        return token.value;
      })
      .finally(() => {
        this.#request = null;
      });
    return this.#request;
  }

  /** The provider refused it: it ended early, and the next call asks for a new one. */
  forget(): void {
    this.#token = null;
  }
}

/** A call with the bearer token; a 401 means the token died early: one fresh token, one retry. */
export async function callWithBearer(
  options: ProviderClientOptions,
  token: BearerToken,
  call: ProviderCall,
): Promise<ProviderAnswer> {
  const withToken = (value: string): ProviderCall => ({
    ...call,
    headers: { ...call.headers, authorization: `Bearer ${value}` },
  });
  const first = await token.value();
  try {
    return await callProvider(options, withToken(first));
  } catch (error) {
    if (!(error instanceof ProviderError) || error.details.status !== 401) throw error;
    token.forget();
    return callProvider(options, withToken(await token.value()));
  }
}

/** Connection-level failures that happen before a request is sent: nothing can have been acted on. */
const NOT_CONNECTED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function neverConnected(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' && NOT_CONNECTED_CODES.has(cause.code);
}

/** A 2xx answer that does not have the documented shape: the provider changed or a proxy answered. */
export function unexpectedAnswer(provider: ProviderName, what: string, detail: string): ProviderError {
  return new ProviderError(`${provider} answered ${what} in an unexpected shape: ${detail}`, {
    provider,
    retryable: true,
  });
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const JSON_DECIMAL_PATTERN = new RegExp(`^\\d{1,${MAX_JSON_DECIMAL_DIGITS}}(\\.\\d{1,${MAX_JSON_DECIMAL_DIGITS}})?$`);

/** An amount written into a JSON body as an exact number (the providers document numbers). */
export class JsonDecimal {
  constructor(readonly text: string) {
    if (!JSON_DECIMAL_PATTERN.test(text)) throw new Error(`not a plain decimal: ${text}`);
  }
  toJSON(): string {
    return `${DECIMAL_MARK}${this.text}${DECIMAL_MARK}`;
  }
}

// A mark no caller's string can contain by chance: fresh at every start.
const DECIMAL_MARK = `~dec${crypto.randomBytes(8).toString('hex')}~`;
const DECIMAL_PATTERN = new RegExp(`"${DECIMAL_MARK}([0-9.]+)${DECIMAL_MARK}"`, 'g');

export function stringifyWithDecimals(value: unknown): string {
  return JSON.stringify(value).replace(DECIMAL_PATTERN, '$1');
}

/**
 * An amount we send, checked first: callers validate too, but a provider must never receive a
 * negative, empty or over-precise amount because a caller forgot.
 */
export function jsonAmount(
  provider: ProviderName,
  text: string,
  field: string,
  maxScale = DEFAULT_MAX_AMOUNT_SCALE,
): JsonDecimal {
  const value = typeof text === 'string' ? parsePositive(text, maxScale) : null;
  if (value === null) {
    throw new ProviderError(`${field} must be a positive decimal with at most ${maxScale} decimals`, {
      provider,
      code: 'INVALID_AMOUNT',
      retryable: false,
    });
  }
  return new JsonDecimal(canonical(value));
}
