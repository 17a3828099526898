/** Spec §2.3: a connected address reads as its first 6 and last 4 characters. */
export function shortenAddress(address: string): string {
  if (address.length <= 10) return address;
  return `${address.slice(0, 6)}...${address.slice(-4)}`;
}

/** personal_sign takes the message as 0x-prefixed hex of its UTF-8 bytes. */
export function hexUtf8(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let hex = '0x';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}
