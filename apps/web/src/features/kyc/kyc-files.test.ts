import { describe, expect, it } from 'vitest';
import { checkKycFile, formatFileSize, readFileHeader, sniffImageType } from './kyc-files.ts';

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'front.png');
const jpeg = () => new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00])], 'front.jpg');

describe('KYC files (spec §5: PNG or JPG by content, up to 10 MB)', () => {
  it('recognises PNG and JPEG by their first bytes only', () => {
    expect(sniffImageType(new Uint8Array([0x89, 0x50, 0x4e, 0x47]))).toBe('image/png');
    expect(sniffImageType(new Uint8Array([0xff, 0xd8, 0xff, 0xdb]))).toBe('image/jpeg');
    expect(sniffImageType(new Uint8Array([0x47, 0x49, 0x46, 0x38]))).toBeNull(); // GIF8
    expect(sniffImageType(new Uint8Array([0x89, 0x50]))).toBeNull();
    expect(sniffImageType(new Uint8Array([]))).toBeNull();
  });

  it('reads the header of a file', async () => {
    expect(Array.from(await readFileHeader(png()))).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it('accepts PNG and JPEG content whatever the name says', async () => {
    await expect(checkKycFile(png())).resolves.toEqual({ ok: true, contentType: 'image/png' });
    await expect(checkKycFile(jpeg())).resolves.toEqual({ ok: true, contentType: 'image/jpeg' });
    const renamed = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe1])], 'scan.pdf', { type: 'application/pdf' });
    await expect(checkKycFile(renamed)).resolves.toMatchObject({ ok: true, contentType: 'image/jpeg' });
  });

  it("refuses other content named like an image with 'Invalid file type'", async () => {
    const fake = new File(['%PDF-1.7'], 'passport.png', { type: 'image/png' });
    await expect(checkKycFile(fake)).resolves.toEqual({ ok: false, errorKey: 'wallet.kyc.files.invalidType' });
    await expect(checkKycFile(new File([], 'empty.jpg'))).resolves.toMatchObject({ ok: false });
  });

  it("refuses a file above the limit with 'File size too large', before reading it", async () => {
    const big = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0, 0, 0, 0])], 'big.png');
    await expect(checkKycFile(big, 10)).resolves.toEqual({ ok: false, errorKey: 'wallet.kyc.files.tooLarge' });
    await expect(checkKycFile(big, 11)).resolves.toMatchObject({ ok: true });
  });

  it('writes sizes for people', () => {
    expect(formatFileSize(900)).toBe('900 B');
    expect(formatFileSize(840_000)).toBe('820 KB');
    expect(formatFileSize(10 * 1024 * 1024)).toBe('10.0 MB');
  });
});
