import { claimOpenPayments, failStaleCreating, type PaymentRow, type PaymentsService } from './payments.ts';
import { RepeatingPass } from './repeating-pass.ts';

/**
 * Asks the provider about payments still open, so that a lost webhook loses no deposit: what it
 * answers goes through the same apply-once paths as a webhook. Bounded: a batch per pass, and a
 * payment is asked about at most once per interval.
 */

/** How often a pass runs, and the least time between two questions about one payment. */
export const RECONCILE_INTERVAL_MS = 5_000;
/** Payments asked about per pass: a pass stays a few seconds of provider calls, however many are open. */
export const RECONCILE_BATCH = 50;
/** A row still 'creating' this long after its insert was interrupted (a crash mid-request). */
export const STALE_CREATING_MS = 2 * 60_000;

export class Reconciler {
  private readonly passes: RepeatingPass;

  constructor(
    private readonly service: PaymentsService,
    private readonly intervalMs = RECONCILE_INTERVAL_MS,
  ) {
    this.passes = new RepeatingPass(
      () => this.pass(),
      intervalMs,
      (error) => service.deps.log.error({ err: error }, 'payment reconciliation pass failed'),
    );
  }

  start(): void {
    this.passes.start(this.intervalMs);
  }

  stop(): Promise<void> {
    return this.passes.stop();
  }

  /** One pass; answers how many payments were asked about. `minIntervalMs` 0 asks about every open one. */
  async pass(minIntervalMs = this.intervalMs): Promise<number> {
    const { db, clock, log } = this.service.deps;
    const provider = this.service.provider();
    const now = clock();
    const interrupted = await failStaleCreating(db, now, STALE_CREATING_MS);
    if (interrupted > 0)
      log.warn({ count: interrupted }, 'payments interrupted before their checkout existed: marked failed');
    const rows = await claimOpenPayments(db, provider.name, now, minIntervalMs, RECONCILE_BATCH);
    for (const row of rows) {
      try {
        await this.reconcile(row);
      } catch (error) {
        log.warn(
          { err: error, paymentId: row.id },
          'could not reconcile a payment with the provider; next pass retries',
        );
      }
    }
    return rows.length;
  }

  private async reconcile(row: PaymentRow): Promise<void> {
    const provider = this.service.provider();
    if (row.lightning_provider_reference && row.lightning_paid_at === null) {
      const lightning = await provider.lightningStatus(row.lightning_provider_reference);
      await this.service.applyLightningState(
        {
          providerReference: row.lightning_provider_reference,
          reference: row.lightning_reference,
          paid: lightning.paid,
          expired: lightning.expired,
        },
        provider.name,
      );
      if (lightning.paid || row.kind === 'lightning') return;
    }
    if (row.kind === 'lightning' || !row.provider_reference) return;
    const state = await provider.paymentStatus(row.provider_reference);
    await this.service.applyPaymentState({ ...state, reference: state.reference ?? row.id }, provider.name);
  }
}
