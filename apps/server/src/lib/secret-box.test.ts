import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

describe('SecretBox', () => {
  const box = new SecretBox(crypto.randomBytes(32).toString('hex'));

  it('opens what it sealed, and never seals the same value twice the same way', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
  });

  it('refuses a value sealed with another key, altered, or not sealed at all', () => {
    const sealed = box.seal('secret');
    expect(new SecretBox(crypto.randomBytes(32).toString('hex')).open(sealed)).toBeNull();
    const [version, iv, payload] = sealed.split('.') as [string, string, string];
    for (const index of [0, Buffer.from(payload, 'base64url').length - 1]) {
      const bytes = Buffer.from(payload, 'base64url');
      bytes[index] = (bytes[index] ?? 0) ^ 0x01;
      expect(box.open([version, iv, bytes.toString('base64url')].join('.'))).toBeNull();
    }
    expect(box.open('JBSWY3DPEHPK3PXP')).toBeNull();
    expect(box.open('v1..')).toBeNull();
  });

  it('wants a 256-bit key', () => {
    expect(() => new SecretBox('abcd')).toThrow('32 bytes');
  });
});
