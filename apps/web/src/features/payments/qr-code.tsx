import clsx from 'clsx';
import { QRCodeSVG } from 'qrcode.react';

interface QrCodeProps {
  /** What the code encodes (an address, a `lightning:` invoice). */
  value: string;
  /** The accessible name: what the code is for, with the encoded text (screen readers read it). */
  label: string;
  /** Edge length in CSS pixels. */
  size?: number;
  className?: string;
  testId?: string;
}

/**
 * A QR code that scanners read in every theme: black modules on white with the 4-module quiet zone
 * the QR specification asks for, drawn as SVG (crisp at any zoom and pixel density). The light
 * frame stays light in dark themes on purpose: a scanner needs dark-on-light contrast.
 */
export function QrCode({ value, label, size = 184, className, testId }: QrCodeProps) {
  return (
    <figure className={clsx('qr-code', className)} role="img" aria-label={label} data-testid={testId} title={label}>
      <QRCodeSVG
        value={value}
        size={size}
        level="M"
        marginSize={4}
        bgColor="#ffffff"
        fgColor="#000000"
        className="qr-code-svg"
        aria-hidden="true"
        focusable="false"
        data-value={value}
      />
    </figure>
  );
}
