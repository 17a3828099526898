import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from './mailer.ts';
import { readOutbox } from './outbox-mailer.ts';

describe('outbox mailer', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes each mail as a JSON file a developer can read, in sending order', async () => {
    const outboxDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'outbox-')), 'outbox');
    dirs.push(path.dirname(outboxDir));
    let now = new Date('2030-01-02T03:04:05.000Z');
    const mailer = createMailer({ mailer: 'outbox', outboxDir }, () => now);

    await mailer.send({ to: 'a@example.com', subject: 'First', text: 'one', html: '<p>one</p>' });
    now = new Date(now.getTime() + 1000);
    await mailer.send({ to: 'b@example.com', subject: 'Second', text: 'two' });

    expect(await readOutbox(outboxDir)).toEqual([
      { to: 'a@example.com', subject: 'First', text: 'one', html: '<p>one</p>', sent_at: '2030-01-02T03:04:05.000Z' },
      { to: 'b@example.com', subject: 'Second', text: 'two', sent_at: '2030-01-02T03:04:06.000Z' },
    ]);
  });

  it('reads an outbox that does not exist yet as empty', async () => {
    expect(await readOutbox(path.join(os.tmpdir(), 'no-such-outbox-dir'))).toEqual([]);
  });
});
