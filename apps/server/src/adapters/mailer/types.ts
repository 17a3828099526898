export type Mail = { to: string; subject: string; text: string; html?: string };

/** Sends mail. The embedded default writes it to a folder; a real transport plugs in here. */
export interface Mailer {
  send(mail: Mail): Promise<void>;
}
