import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QrCode } from './qr-code.tsx';

describe('QrCode', () => {
  it('is one image named with the encoded text, drawn black on white with a quiet zone', () => {
    render(<QrCode value="bc1qexampleaddress" label="QR code of bc1qexampleaddress" testId="qr" />);
    const figure = screen.getByRole('img', { name: 'QR code of bc1qexampleaddress' });
    expect(figure).toBe(screen.getByTestId('qr'));
    const svg = figure.querySelector('svg');
    expect(svg).toHaveAttribute('aria-hidden', 'true');
    expect(svg).toHaveAttribute('data-value', 'bc1qexampleaddress');
    const [background, modules] = Array.from(svg?.querySelectorAll('path') ?? []);
    expect(background).toHaveAttribute('fill', '#ffffff');
    expect(modules).toHaveAttribute('fill', '#000000');
    expect(modules).toHaveAttribute('shape-rendering', 'crispEdges');
    // 4 modules of margin on each side: the drawing starts at 4,4 in the view box.
    expect(modules?.getAttribute('d')).toMatch(/^M4 4/);
  });
});
