import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decimalFromProvider, expandExponent, proportion } from './amounts.ts';
import { btcToMsat, decodeInvoice, makeTestnetInvoice, sandboxNodeKey } from './bolt11.ts';
import { JsonDecimal, jsonAmount, stringifyWithDecimals } from './http.ts';
import {
  checkNowPaymentsSignature,
  checkTripleASignature,
  sortKeysRecursively,
  tripleASignatureHeader,
  webhookEventId,
} from './signatures.ts';
import { ProviderError } from './types.ts';

/** The pure pieces the adapters share: signatures, event ids, amounts at the edge, BOLT11. */

describe('Triple-A signatures', () => {
  const secret = 'notify-secret';
  const body = '{"event":"payment","status":"good"}';
  const now = new Date('2026-01-01T00:00:00Z');
  const t = now.getTime() / 1000;

  it('signs t + "." + body with HMAC-SHA256, as documented', () => {
    const expected = crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(tripleASignatureHeader(secret, body, t)).toBe(`t=${t},v1=${expected}`);
  });

  it('accepts the window strictly inside the tolerance and refuses everything else', () => {
    const check = (header: string | undefined, at = now, rawBody = body) =>
      checkTripleASignature(header, rawBody, secret, at, 300);
    expect(check(tripleASignatureHeader(secret, body, t))).toBe('ok');
    expect(check(tripleASignatureHeader(secret, body, t - 299))).toBe('ok');
    expect(check(tripleASignatureHeader(secret, body, t - 300))).toBe('stale');
    expect(check(tripleASignatureHeader(secret, body, t + 300))).toBe('stale');
    expect(check(tripleASignatureHeader('other', body, t))).toBe('bad_signature');
    expect(check(tripleASignatureHeader(secret, body, t), now, `${body} `)).toBe('bad_signature');
    expect(check(undefined)).toBe('unsigned');
    expect(check('  ')).toBe('unsigned');
    expect(check(`t=${t}`)).toBe('malformed');
    expect(check('v1=00')).toBe('malformed');
    expect(check('garbage')).toBe('malformed');
    expect(check(`t=${t},v1=${'z'.repeat(64)}`)).toBe('bad_signature');
    expect(check(`t=1e9,v1=${'0'.repeat(64)}`)).toBe('malformed');
    expect(check(`t=${t},v1=${'0'.repeat(2000)}`)).toBe('malformed');
    // Several v1 entries (a secret being rotated): one good one is enough.
    const good = tripleASignatureHeader(secret, body, t).split(',v1=')[1];
    expect(check(`t=${t},v1=${'0'.repeat(64)},v1=${good}`)).toBe('ok');
    expect(check(`t=${t},v1=${good?.toUpperCase()}`)).toBe('ok');
  });
});

describe('NOWPayments signatures', () => {
  it('is HMAC-SHA512 of the JSON of the key-sorted body', () => {
    const body = { payment_id: 5, a: [{ z: 1, b: 2 }], nested: { y: true, x: null } };
    const expected = crypto
      .createHmac('sha512', 'ipn')
      .update('{"a":[{"b":2,"z":1}],"nested":{"x":null,"y":true},"payment_id":5}')
      .digest('hex');
    expect(checkNowPaymentsSignature(expected, body, 'ipn')).toBe('ok');
    expect(checkNowPaymentsSignature(expected, { ...body, payment_id: 6 }, 'ipn')).toBe('bad_signature');
    expect(checkNowPaymentsSignature(undefined, body, 'ipn')).toBe('unsigned');
    expect(sortKeysRecursively([{ b: 1, a: 2 }])).toEqual([{ a: 2, b: 1 }]);
  });

  it('gives the same event id to the same body, whatever its key order', () => {
    expect(webhookEventId('x', { a: 1, b: { c: 2, d: 3 } })).toBe(webhookEventId('x', { b: { d: 3, c: 2 }, a: 1 }));
    expect(webhookEventId('x', { a: 1 })).not.toBe(webhookEventId('x', { a: 2 }));
    expect(webhookEventId('x', { a: 1 })).not.toBe(webhookEventId('y', { a: 1 }));
  });
});

describe('amounts at the edge', () => {
  it('reads provider numbers and strings as exact decimal text, never as floats', () => {
    expect(decimalFromProvider(0.1)).toBe('0.1');
    expect(decimalFromProvider(25.5)).toBe('25.5');
    expect(decimalFromProvider('25.50')).toBe('25.5');
    expect(decimalFromProvider(1.5e-7)).toBe('0.00000015');
    // Beyond what a NUMERIC(38,18) column holds.
    expect(decimalFromProvider(1e21)).toBeNull();
    expect(decimalFromProvider('0.00000001')).toBe('0.00000001');
    expect(decimalFromProvider(-1)).toBeNull();
    expect(decimalFromProvider('abc')).toBeNull();
    expect(decimalFromProvider(Number.NaN)).toBeNull();
    expect(decimalFromProvider(null)).toBeNull();
    expect(expandExponent('1.25e+3')).toBe('1250');
    expect(expandExponent('1.25e-1')).toBe('0.125');
  });

  it('computes a paid share rounded down, never above the total', () => {
    expect(proportion('100', '0.0005', '0.0015', 8)).toBe('33.33333333');
    expect(proportion('100', '0.002', '0.0015', 8)).toBe('100');
    expect(proportion('100', '1', '0', 8)).toBe('0');
  });

  it('writes amounts into JSON as exact numbers', () => {
    expect(stringifyWithDecimals({ a: new JsonDecimal('0.000000012345678901'), b: 'x' })).toBe(
      '{"a":0.000000012345678901,"b":"x"}',
    );
    expect(stringifyWithDecimals({ a: jsonAmount('nowpayments', '25.50', 'a') })).toBe('{"a":25.5}');
    expect(() => new JsonDecimal('1e5')).toThrow();
    expect(() => jsonAmount('triple-a', '-1', 'amount')).toThrow(ProviderError);
    expect(() => jsonAmount('triple-a', '0.1234567', 'amount', 6)).toThrow(ProviderError);
    // A caller's string that looks like the mark stays a string.
    expect(stringifyWithDecimals({ a: '~dec~1~dec~' })).toBe('{"a":"~dec~1~dec~"}');
  });
});

describe('BOLT11', () => {
  it('decodes the specification test vector', () => {
    const vector =
      'lnbc2500u1pvjluezpp5qqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqqqsyqcyq5rqwzqfqypqdq5xysxxatsyp3k7enxv4jsxqzpuaztrnwngzn3kdzw5hydlzf03qdgm2hdq27cqv3agm2awhz5se903vruatfhq77w3ls4evs3ch9zw97j25emudupq63nyw24cg27h2rspfj9srp';
    expect(decodeInvoice(vector)).toMatchObject({
      complete: true,
      prefix: 'lnbc2500u',
      amountMsat: 250_000_000n,
      paymentHash: '0001020304050607080900010203040506070809000102030405060708090102',
      description: '1 cup coffee',
      expirySeconds: 60,
    });
    expect(decodeInvoice('lnbc1garbage')).toBeNull();
  });

  it('makes signed testnet invoices with a fresh preimage each time, from a stable node key', () => {
    const nodeKey = sandboxNodeKey('a'.repeat(64));
    expect(sandboxNodeKey('a'.repeat(64)).equals(nodeKey)).toBe(true);
    expect(sandboxNodeKey('b'.repeat(64)).equals(nodeKey)).toBe(false);
    const input = { amountMsat: 1_234_567n, description: 'x', expirySeconds: 600, timestamp: 1_760_000_000, nodeKey };
    const first = makeTestnetInvoice(input);
    const second = makeTestnetInvoice(input);
    expect(first.paymentHash).not.toBe(second.paymentHash);
    expect(crypto.createHash('sha256').update(Buffer.from(first.preimage, 'hex')).digest('hex')).toBe(
      first.paymentHash,
    );
    const decoded = decodeInvoice(first.invoice)!;
    expect(decoded).toMatchObject({
      complete: true,
      prefix: 'lntb12345670p',
      amountMsat: 1_234_567n,
      paymentHash: first.paymentHash,
      paymentSecret: first.paymentSecret,
      timestamp: 1_760_000_000,
    });
    expect(decodeInvoice(second.invoice)!.payeeNodeKey).toBe(decoded.payeeNodeKey);
  });

  it('converts BTC to millisatoshi exactly', () => {
    expect(btcToMsat('1')).toBe(100_000_000_000n);
    expect(btcToMsat('0.00000000001')).toBe(1n);
    expect(btcToMsat('21000000')).toBe(2_100_000_000_000_000_000n);
    expect(btcToMsat('0.000000000001')).toBeNull();
    expect(btcToMsat('-1')).toBeNull();
    expect(btcToMsat('1e-3')).toBeNull();
  });
});
