import { decimal, formatDecimal } from '@platform/money';
import QRCode from 'qrcode';
import { cardCharge, currencyDecimals } from './card-fee.ts';
import type { CheckoutView, InvoiceView } from './sandbox.ts';
import { paymentUri } from './sandbox-values.ts';
import type { CardSupport } from './types.ts';

/**
 * The sandbox's hosted pages: plain server-rendered HTML. The CSP allows no inline script (script-src
 * 'self'), so the buttons are HTML forms; inline styles are allowed and keep each page one response.
 */

const STATUS_TEXT: Record<CheckoutView['status'], string> = {
  waiting: 'Waiting for payment',
  confirming: 'Payment seen, waiting for confirmation',
  paid: 'Paid',
  underpaid: 'Underpaid',
  expired: 'Expired',
  failed: 'Failed',
  refunded: 'Refunded',
};

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

const styles = {
  body: 'margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#eef1f6;font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#141a26;',
  card: 'width:100%;max-width:440px;margin:24px;background:#ffffff;border-radius:16px;box-shadow:0 12px 40px rgba(20,26,38,0.12);padding:28px 28px 24px;box-sizing:border-box;',
  brand: 'display:flex;align-items:center;justify-content:space-between;margin-bottom:20px;',
  logo: 'font-weight:700;font-size:20px;letter-spacing:0.02em;color:#141a26;',
  badge:
    'font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:0.08em;background:#fff4d6;color:#8a5a00;border-radius:999px;padding:4px 10px;',
  label: 'font-size:12px;text-transform:uppercase;letter-spacing:0.06em;color:#5b6475;margin:16px 0 4px;',
  amount: 'font-size:30px;font-weight:700;margin:0;',
  sub: 'font-size:14px;color:#5b6475;margin:4px 0 0;',
  mono: 'font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;word-break:break-all;background:#f4f6fa;border-radius:8px;padding:10px 12px;margin:0;',
  qr: 'display:block;margin:16px auto 4px;width:200px;height:200px;border-radius:8px;border:1px solid #e3e7ee;',
  status:
    'display:inline-block;font-size:13px;font-weight:600;border-radius:8px;padding:6px 10px;background:#e8f0ff;color:#1d4ed8;',
  actions: 'display:flex;flex-direction:column;gap:10px;margin-top:24px;',
  form: 'margin:0;',
  primary:
    'width:100%;border:0;border-radius:10px;padding:13px 16px;font-size:15px;font-weight:600;cursor:pointer;background:#1d4ed8;color:#ffffff;',
  secondary:
    'width:100%;border:1px solid #c9d0dc;border-radius:10px;padding:12px 16px;font-size:15px;font-weight:600;cursor:pointer;background:#ffffff;color:#141a26;',
  quiet:
    'width:100%;border:0;border-radius:10px;padding:12px 16px;font-size:14px;cursor:pointer;background:transparent;color:#b42318;text-decoration:underline;',
  note: 'font-size:12px;color:#5b6475;margin-top:20px;line-height:1.5;',
  link: 'color:#1d4ed8;',
} as const;

function page(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Meridian</title>
</head>
<body style="${styles.body}">
<main style="${styles.card}">
<div style="${styles.brand}"><span style="${styles.logo}">Meridian</span><span style="${styles.badge}">Sandbox</span></div>
${content}
<p style="${styles.note}">This is the sandbox payment provider: no real money moves. The buttons stand in for what a payer's wallet would do.</p>
</main>
</body>
</html>`;
}

function button(action: string, text: string, style: string): string {
  return `<form method="post" action="${escapeHtml(action)}" style="${styles.form}"><button type="submit" style="${style}">${escapeHtml(text)}</button></form>`;
}

function utc(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The card checkout: the amount bought, the card fee and the total charged, a sandbox test card, and
 * the buttons a card payment can end with (paid, declined, left to expire).
 */
export function cardCheckoutPage(view: CheckoutView, card: CardSupport): string {
  const base = `/sandbox/checkout/${encodeURIComponent(view.id)}`;
  const charge = cardCharge(card, view.orderCurrency, view.orderAmount);
  // At the currency's decimals, as the wallet shows them ("103.50 USD").
  const fixed = (value: string) => formatDecimal(decimal(value), { scale: currencyDecimals(view.orderCurrency) });
  const [amount, fee, total] = [fixed(view.orderAmount), fixed(charge.fee), fixed(charge.total)];
  const currency = escapeHtml(view.orderCurrency);
  const row = (label: string, value: string, strong = false) =>
    `<div style="display:flex;justify-content:space-between;gap:12px;margin:6px 0;font-size:15px;${strong ? 'font-weight:700;' : ''}"><span>${escapeHtml(label)}</span><span>${escapeHtml(value)}</span></div>`;
  const actions =
    view.status === 'waiting'
      ? `<p style="${styles.label}">Card (sandbox test card)</p>
<p style="${styles.mono}">4242 4242 4242 4242 · 12/34 · CVC 123</p>
<div style="${styles.actions}">
${button(`${base}/pay`, `Pay ${total} ${view.orderCurrency}`, styles.primary)}
${button(`${base}/decline`, 'Decline the card', styles.secondary)}
${button(`${base}/expire`, 'Let it expire', styles.quiet)}
</div>`
      : `<p style="${styles.sub}">Nothing left to do here.${
          view.status === 'expired' || view.status === 'failed'
            ? ''
            : ` <a style="${styles.link}" href="${escapeHtml(view.successUrl)}">Back to Meridian</a>`
        }</p>`;
  return page(
    'Card payment',
    `<h1 style="margin:0 0 4px;font-size:18px;">${escapeHtml(view.description || 'Card payment')}</h1>
<p style="${styles.sub}">Reference ${escapeHtml(view.reference)}</p>
<p style="${styles.label}">You buy</p>
<p style="${styles.amount}">${escapeHtml(amount)} ${currency}</p>
<div style="margin-top:12px;">
${row('Amount', `${amount} ${view.orderCurrency}`)}
${row('Card fee', `${fee} ${view.orderCurrency}`)}
${row('Charged to your card', `${total} ${view.orderCurrency}`, true)}
</div>
<p style="${styles.label}">Expires</p>
<p style="margin:0;font-size:15px;"><time datetime="${view.expiresAt.toISOString()}">${utc(view.expiresAt)}</time></p>
<p style="${styles.label}">Status</p>
<span style="${styles.status}">${escapeHtml(STATUS_TEXT[view.status])}</span>
${actions}`,
  );
}

export async function checkoutPage(view: CheckoutView): Promise<string> {
  const base = `/sandbox/checkout/${encodeURIComponent(view.id)}`;
  const owed = view.cryptoAmount ?? view.orderAmount;
  const owedCurrency = view.cryptoAmount ? view.cryptoCurrency : view.orderCurrency;
  const qr = await QRCode.toDataURL(paymentUri(view.cryptoCurrency, view.cryptoAddress, view.cryptoAmount), {
    margin: 1,
    width: 400,
    errorCorrectionLevel: 'M',
  });
  const orderLine =
    owedCurrency === view.orderCurrency
      ? ''
      : `<p style="${styles.sub}">Order: ${escapeHtml(view.orderAmount)} ${escapeHtml(view.orderCurrency)}</p>`;
  const actions =
    view.status === 'waiting'
      ? `<div style="${styles.actions}">
${button(`${base}/pay`, `Pay ${owed} ${owedCurrency}`, styles.primary)}
${button(`${base}/underpay`, 'Pay less (half)', styles.secondary)}
${button(`${base}/expire`, 'Let it expire', styles.quiet)}
</div>`
      : `<p style="${styles.sub}">Nothing left to do here.${
          view.status === 'expired'
            ? ''
            : ` <a style="${styles.link}" href="${escapeHtml(view.successUrl)}">Back to Meridian</a>`
        }</p>`;
  return page(
    'Checkout',
    `<h1 style="margin:0 0 4px;font-size:18px;">${escapeHtml(view.description || 'Payment')}</h1>
<p style="${styles.sub}">Reference ${escapeHtml(view.reference)}</p>
<p style="${styles.label}">Amount due</p>
<p style="${styles.amount}">${escapeHtml(owed)} ${escapeHtml(owedCurrency)}</p>
${orderLine}
<img style="${styles.qr}" src="${qr}" alt="QR code of the payment address">
<p style="${styles.label}">Send to this ${escapeHtml(view.cryptoCurrency)} address</p>
<p style="${styles.mono}">${escapeHtml(view.cryptoAddress)}</p>
<p style="${styles.label}">Expires</p>
<p style="margin:0;font-size:15px;"><time datetime="${view.expiresAt.toISOString()}">${utc(view.expiresAt)}</time></p>
<p style="${styles.label}">Status</p>
<span style="${styles.status}">${escapeHtml(STATUS_TEXT[view.status])}</span>
${actions}`,
  );
}

export async function lightningPage(view: InvoiceView): Promise<string> {
  const base = `/sandbox/lightning/${encodeURIComponent(view.paymentHash)}`;
  const qr = await QRCode.toDataURL(`lightning:${view.invoice}`.toUpperCase(), {
    margin: 1,
    width: 400,
    errorCorrectionLevel: 'L',
  });
  const status = view.paid ? 'Paid' : view.expired ? 'Expired' : 'Waiting for payment';
  const sats = formatSats(view.amountMsat);
  return page(
    'Lightning invoice',
    `<h1 style="margin:0 0 4px;font-size:18px;">${escapeHtml(view.description || 'Lightning invoice')}</h1>
<p style="${styles.label}">Amount</p>
<p style="${styles.amount}">${escapeHtml(sats)} sats</p>
<p style="${styles.sub}">${escapeHtml(formatBtc(view.amountMsat))} BTC</p>
<img style="${styles.qr}" src="${qr}" alt="QR code of the Lightning invoice">
<p style="${styles.label}">Invoice (BOLT11, testnet)</p>
<p style="${styles.mono}">${escapeHtml(view.invoice)}</p>
<p style="${styles.label}">Payment hash</p>
<p style="${styles.mono}">${escapeHtml(view.paymentHash)}</p>
<p style="${styles.label}">Expires</p>
<p style="margin:0;font-size:15px;"><time datetime="${view.expiresAt.toISOString()}">${utc(view.expiresAt)}</time></p>
<p style="${styles.label}">Status</p>
<span style="${styles.status}">${status}</span>
${
  !view.paid && !view.expired
    ? `<div style="${styles.actions}">${button(`${base}/pay`, 'Mark paid', styles.primary)}</div>`
    : ''
}`,
  );
}

export function messagePage(title: string, message: string): string {
  return page(
    title,
    `<h1 style="margin:0 0 8px;font-size:18px;">${escapeHtml(title)}</h1><p style="${styles.sub}">${escapeHtml(message)}</p>`,
  );
}

/** Millisatoshi as satoshi text ('150000' msat -> '150', '1500' -> '1.5'). */
function formatSats(amountMsat: bigint): string {
  const whole = amountMsat / 1000n;
  const rest = amountMsat % 1000n;
  return rest === 0n ? whole.toString() : `${whole}.${rest.toString().padStart(3, '0').replace(/0+$/, '')}`;
}

/** Millisatoshi as BTC text (1 BTC = 10^11 msat; '150000000' -> '0.0015'). */
function formatBtc(amountMsat: bigint): string {
  const whole = amountMsat / 100_000_000_000n;
  const rest = (amountMsat % 100_000_000_000n).toString().padStart(11, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : whole.toString();
}
