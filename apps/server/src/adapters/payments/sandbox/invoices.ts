import type { Database } from '../../../db/database.ts';
import { invariant } from '../../../lib/invariant.ts';
import { btcToMsat, MAX_DESCRIPTION_BYTES, makeTestnetInvoice } from '../bolt11.ts';
import { checkExpiry, checkReference, checkText, checkUrl, refuse } from '../sandbox-values.ts';
import type { LightningInvoice, LightningInvoiceRequest } from '../types.ts';
import { type ControlResult, type InvoiceRow, invoiceByHash, invoiceByReference } from './rows.ts';
import type { SandboxWebhooks } from './webhooks.ts';

/** Lightning invoices: real BOLT11 (testnet) invoices, paid with the sandbox page's "Mark paid". */

export type InvoiceView = {
  paymentHash: string;
  invoice: string;
  amountMsat: bigint;
  description: string;
  paid: boolean;
  expired: boolean;
  expiresAt: Date;
};

export class SandboxInvoices {
  constructor(
    private readonly options: { db: Database; clock: () => Date },
    private readonly nodeKey: Buffer,
    private readonly webhooks: SandboxWebhooks,
  ) {}

  async create(request: LightningInvoiceRequest): Promise<LightningInvoice> {
    const reference = checkReference(request.reference);
    const amountMsat = typeof request.amountBtc === 'string' ? btcToMsat(request.amountBtc) : null;
    if (amountMsat === null || amountMsat <= 0n) {
      throw refuse('INVALID_AMOUNT', 'amountBtc must be a positive BTC amount with at most 11 decimals');
    }
    const description = checkText(request.description, 'description');
    if (Buffer.byteLength(description, 'utf8') > MAX_DESCRIPTION_BYTES) {
      throw refuse('INVALID_TEXT', `description must be at most ${MAX_DESCRIPTION_BYTES} bytes`);
    }
    checkUrl(request.notifyUrl, 'notifyUrl');
    const expirySeconds = checkExpiry(request.expiresInSeconds);
    const existing = await invoiceByReference(this.options.db, reference);
    if (existing) return lightningInvoiceOf(existing);

    const now = this.options.clock();
    const made = makeTestnetInvoice({
      amountMsat,
      description,
      expirySeconds,
      timestamp: Math.floor(now.getTime() / 1000),
      nodeKey: this.nodeKey,
    });
    await this.options.db.query(
      `INSERT INTO sandbox_invoices (payment_hash, reference, preimage, amount_msat, description, invoice, notify_url,
          status, expires_at, created_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, 'open', $8, $9)
        ON CONFLICT (reference) DO NOTHING`,
      [
        made.paymentHash,
        reference,
        made.preimage,
        amountMsat.toString(),
        description,
        made.invoice,
        request.notifyUrl,
        new Date(now.getTime() + expirySeconds * 1000),
        now,
      ],
    );
    const row = await invoiceByReference(this.options.db, reference);
    invariant(row, `sandbox invoice ${reference} vanished after insert`);
    return lightningInvoiceOf(row);
  }

  async status(providerReference: string): Promise<{ paid: boolean; expired: boolean }> {
    const view = await this.view(providerReference);
    if (!view) throw refuse('NOT_FOUND', `invoice ${providerReference} not found`, 404);
    return { paid: view.paid, expired: view.expired };
  }

  async view(paymentHash: string): Promise<InvoiceView | null> {
    const row = await invoiceByHash(this.options.db, paymentHash);
    if (!row) return null;
    const paid = row.status === 'paid';
    return {
      paymentHash: row.payment_hash,
      invoice: row.invoice,
      amountMsat: BigInt(row.amount_msat),
      description: row.description,
      paid,
      expired: !paid && new Date(row.expires_at).getTime() <= this.options.clock().getTime(),
      expiresAt: new Date(row.expires_at),
    };
  }

  /** The sandbox page's "Mark paid": the invoice is settled and the webhook sent. */
  async pay(paymentHash: string): Promise<ControlResult<null>> {
    return this.options.db.transaction(async (tx) => {
      const row = await invoiceByHash(tx, paymentHash, true);
      if (!row) return { ok: false, error: 'not_found' };
      if (row.status !== 'open') return { ok: false, error: 'not_pending' };
      const now = this.options.clock();
      if (new Date(row.expires_at).getTime() <= now.getTime()) return { ok: false, error: 'expired' };
      await tx.query(`UPDATE sandbox_invoices SET status = 'paid', paid_at = $2 WHERE payment_hash = $1`, [
        row.payment_hash,
        now,
      ]);
      await this.webhooks.enqueue(tx, 'lightning', row.payment_hash, row.notify_url, {
        event: 'lightning',
        payment_reference: row.payment_hash,
        payment_hash: row.payment_hash,
        status: 'paid',
        payment_tier: 'good',
        amount_msat: row.amount_msat,
        status_date: now.toISOString(),
        expiry_date: new Date(row.expires_at).toISOString(),
        webhook_data: { reference: row.reference },
      });
      return { ok: true, value: null };
    });
  }
}

function lightningInvoiceOf(row: InvoiceRow): LightningInvoice {
  return {
    providerReference: row.payment_hash,
    invoice: row.invoice,
    paymentHash: row.payment_hash,
    expiresAt: new Date(row.expires_at),
  };
}
