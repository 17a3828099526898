import { createHash } from 'node:crypto';
import type { WebhookCheck } from '../../adapters/payments/index.ts';
import type { AppContext } from '../../context.ts';
import { fail, ok, type Result } from '../../lib/errors.ts';
import { invariant } from '../../lib/invariant.ts';
import type { PaymentsService } from './payments.ts';

/**
 * POST /v1/webhooks/{provider}: what the provider tells us, checked before anything is believed.
 * A call that fails the check (unsigned, forged, stale, malformed) is answered 401, logged with its
 * source and recorded, and changes nothing. A checked event is applied through the same
 * apply-once paths the reconciliation worker uses, then recorded by its event id, so a replay of
 * it is answered 200 and changes nothing (and a replay racing the first delivery is harmless: the
 * paths it would take credit once).
 */

export type WebhookRequest = {
  provider: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  rawBody: string;
  sourceIp: string;
};

export type WebhookAck = { received: true; duplicate: boolean };

/** Header names lower-case, repeated headers joined as HTTP joins them. */
function flatHeaders(headers: WebhookRequest['headers']): Record<string, string | undefined> {
  const flat: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(headers)) {
    flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

export async function receiveWebhook(
  context: AppContext,
  service: PaymentsService,
  request: WebhookRequest,
): Promise<Result<WebhookAck>> {
  const { db, log, clock } = context;
  const provider = service.provider();
  const now = clock();
  if (request.provider !== provider.name) {
    // Only the configured provider holds the secret to check a call with.
    return fail('NOT_FOUND', { message: `No webhook endpoint for ${request.provider}` });
  }
  const check: WebhookCheck = provider.verifyWebhook({
    headers: flatHeaders(request.headers),
    rawBody: request.rawBody,
    now,
  });
  if (!check.ok) {
    log.warn(
      { provider: provider.name, reason: check.reason, sourceIp: request.sourceIp, bytes: request.rawBody.length },
      'webhook refused',
    );
    await db.query(
      `INSERT INTO webhook_rejections (provider, reason, source_ip, body_sha256, body_bytes, received_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [
        provider.name,
        check.reason,
        request.sourceIp,
        createHash('sha256').update(request.rawBody).digest('hex'),
        Buffer.byteLength(request.rawBody),
        now,
      ],
    );
    return fail(check.reason === 'stale' ? 'WEBHOOK_TIMESTAMP_INVALID' : 'WEBHOOK_SIGNATURE_INVALID', {
      details: { reason: check.reason },
    });
  }
  const seen = await db.query(`SELECT 1 FROM webhook_events WHERE provider = $1 AND event_id = $2`, [
    provider.name,
    check.eventId,
  ]);
  if (seen.rowCount > 0) return ok({ received: true, duplicate: true });

  const { event } = check;
  let subject: string;
  if (event.kind === 'payment') {
    subject = event.payment.reference ?? event.payment.providerReference;
    const found = await service.applyPaymentState(event.payment, provider.name);
    if (!found) log.warn({ provider: provider.name, subject }, 'webhook about a payment we do not know: ignored');
  } else if (event.kind === 'lightning') {
    subject = event.reference ?? event.providerReference;
    const found = await service.applyLightningState(
      { providerReference: event.providerReference, reference: event.reference, paid: event.paid },
      provider.name,
    );
    if (!found)
      log.warn({ provider: provider.name, subject }, 'webhook about a Lightning invoice we do not know: ignored');
  } else {
    subject = event.payout.reference ?? event.payout.providerReference;
    const listener = service.gateway.payoutListener;
    // Answered only once the withdrawals module took it: its failure is a 500, and the provider retries.
    invariant(listener, 'payout webhook received before the withdrawals module registered its listener');
    await listener(event.payout);
  }
  await db.query(
    `INSERT INTO webhook_events (provider, event_id, kind, subject, received_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (provider, event_id) DO NOTHING`,
    [provider.name, check.eventId, event.kind, subject, now],
  );
  return ok({ received: true, duplicate: false });
}

/**
 * POST /v1/triple-a/webhook/verify (§7.4): would the configured provider accept this payload with
 * this signature (and timestamp)? The signature is presented in each provider's own header, so
 * the provider's own check decides.
 */
export function verifyWebhookSignature(
  context: AppContext,
  service: PaymentsService,
  input: { payload: string | Record<string, unknown>; signature: string; timestamp?: string | number | undefined },
): boolean {
  const rawBody = typeof input.payload === 'string' ? input.payload : JSON.stringify(input.payload);
  const timestamp = input.timestamp === undefined ? undefined : String(input.timestamp).trim();
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'triplea-signature': timestamp ? `t=${timestamp},v1=${input.signature.trim()}` : input.signature.trim(),
    'x-nowpayments-sig': input.signature.trim(),
  };
  return service.provider().verifyWebhook({ headers, rawBody, now: context.clock() }).ok;
}
