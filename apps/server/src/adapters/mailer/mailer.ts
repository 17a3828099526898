import type { Config } from '../../config.ts';
import { createOutboxMailer } from './outbox-mailer.ts';

export type Mail = { to: string; subject: string; text: string; html?: string };

/** Sends mail. The embedded default writes it to a folder; a real transport plugs in here. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export function createMailer(config: Pick<Config, 'mailer' | 'outboxDir'>, clock: () => Date): Mailer {
  switch (config.mailer) {
    case 'outbox':
      return createOutboxMailer(config.outboxDir, clock);
  }
}
