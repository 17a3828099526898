import type { Config } from '../../config.ts';
import { createOutboxMailer } from './outbox-mailer.ts';
import type { Mailer } from './types.ts';

// The types live in types.ts so that the transports can implement them without importing this
// factory back; the accounts and auth modules keep importing them from here.
export type { Mail, Mailer } from './types.ts';

export function createMailer(config: Pick<Config, 'mailer' | 'outboxDir'>, clock: () => Date): Mailer {
  switch (config.mailer) {
    case 'outbox':
      return createOutboxMailer(config.outboxDir, clock);
  }
}
