import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Mail, Mailer } from './types.ts';

/**
 * Writes each mail as a JSON file {to, subject, text, html?, sent_at} into a folder, so that a
 * developer running the embedded default can open the verification link without a mail server.
 * File names start with the send time, so a directory listing is in sending order.
 */
export function createOutboxMailer(outboxDir: string, clock: () => Date): Mailer {
  return {
    async send(mail: Mail): Promise<void> {
      const sentAt = clock();
      await fs.mkdir(outboxDir, { recursive: true });
      const stamp = sentAt.toISOString().replace(/[:.]/g, '-');
      const file = path.join(outboxDir, `${stamp}-${crypto.randomBytes(4).toString('hex')}.json`);
      const record = { ...mail, sent_at: sentAt.toISOString() };
      await fs.writeFile(file, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
    },
  };
}

/** Reads the outbox back, oldest first (tests and local tooling). */
export async function readOutbox(outboxDir: string): Promise<Array<Mail & { sent_at: string }>> {
  const names = await fs.readdir(outboxDir).catch(() => [] as string[]);
  const mails = await Promise.all(
    names
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map(async (name) => JSON.parse(await fs.readFile(path.join(outboxDir, name), 'utf8'))),
  );
  return mails;
}
