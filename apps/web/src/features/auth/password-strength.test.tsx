import { passwordStrength, passwordStrengthLabel } from '@platform/contracts';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordStrengthBar } from './password-strength-bar.tsx';

describe('password strength (spec §5)', () => {
  it.each([
    ['', 0, 'weak'],
    ['abc', 1, 'weak'],
    ['abcdefgh', 2, 'fair'],
    ['Abcdefgh', 3, 'good'],
    ['Abcdefg1', 4, 'strong'],
    ['Abcdef1!', 5, 'strong'],
    ['ABC1!', 3, 'good'],
  ])('%s scores %i (%s)', (password, score, label) => {
    expect(passwordStrength(password)).toBe(score);
    expect(passwordStrengthLabel(score)).toBe(label);
  });

  it('shows the score and its label', () => {
    render(<PasswordStrengthBar password="abcdefgh" />);
    const meter = screen.getByRole('meter', { name: 'Password strength' });
    expect(meter).toHaveAttribute('aria-valuenow', '2');
    expect(screen.getByText('Fair')).toBeInTheDocument();
  });

  it('labels 4 and 5 points Strong', () => {
    render(<PasswordStrengthBar password="Abcdef1!" />);
    expect(screen.getByText('Strong')).toBeInTheDocument();
  });
});
