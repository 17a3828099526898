import { REGISTRATION_RECEIVED_MESSAGE } from '@platform/contracts';
import { expect, it } from 'vitest';
import { readOutbox } from '../../adapters/mailer/outbox-mailer.ts';
import { describeEachDatabase, type TestServer } from '../../test/harness.ts';
import { registrationBody, signUp, uniqueEmail } from '../auth/test-support.ts';
import { EXISTING_ACCOUNT_SUBJECT } from './registration.ts';

async function mailsTo(server: TestServer, email: string) {
  return (await readOutbox(server.config.outboxDir)).filter((mail) => mail.to === email);
}

/** The "someone tried to register with your email" notices, apart from the sign-up's verification mail. */
async function noticesTo(server: TestServer, email: string) {
  return (await mailsTo(server, email)).filter((mail) => mail.subject === EXISTING_ACCOUNT_SUBJECT);
}

/** The notice goes out after the answer: wait for it a little. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return read();
}

async function timeIt(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

describeEachDatabase(
  'registration does not reveal which emails have accounts',
  (server) => {
    const register = (body: Record<string, unknown>) => server().request('POST', '/v1/accounts', { body });

    it('answers a taken email exactly as a new one, and mails the owner instead', async () => {
      const owner = await signUp(server(), { first_name: 'Grace' });
      const fresh = uniqueEmail('fresh');
      const forNew = await register(registrationBody({ email: fresh }));
      const forTaken = await register(registrationBody({ email: owner.email.toUpperCase(), password: 'An0ther&Pass' }));
      expect(forTaken.status).toBe(forNew.status);
      expect(forNew.status).toBe(201);
      expect(forNew.body).toEqual({ email: fresh, message: REGISTRATION_RECEIVED_MESSAGE });
      expect(forTaken.body).toEqual({ email: owner.email, message: REGISTRATION_RECEIVED_MESSAGE });
      expect([...forTaken.headers.keys()].sort()).toEqual([...forNew.headers.keys()].sort());

      const notices = await eventually(
        () => noticesTo(server(), owner.email),
        (mails) => mails.length > 0,
      );
      expect(notices).toHaveLength(1);
      expect(notices[0]).toMatchObject({ subject: EXISTING_ACCOUNT_SUBJECT, text: expect.stringContaining('Grace') });
      expect(notices[0]?.text).toContain('Forgot password');
      // The new address gets its verification link, and no notice.
      const welcome = await eventually(
        () => mailsTo(server(), fresh),
        (mails) => mails.length > 0,
      );
      expect(welcome).toHaveLength(1);
      expect(welcome[0]?.text).toContain('/settings?verify=');

      // The owner's password is untouched: the second registration's password does not sign in.
      const intruder = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email: owner.email, password: 'An0ther&Pass' },
      });
      expect(intruder.status).toBe(401);
      const real = await server().request('POST', '/v1/auth/login', {
        body: { login_type: 'email', email: owner.email, password: owner.password },
      });
      expect(real.status).toBe(200);
    });

    it('takes about as long for a taken email as for a new one (one argon2 hash each)', async () => {
      const owner = await signUp(server());
      const newMs: number[] = [];
      const takenMs: number[] = [];
      for (let i = 0; i < 5; i++) {
        newMs.push(await timeIt(() => register(registrationBody())));
        takenMs.push(await timeIt(() => register(registrationBody({ email: owner.email }))));
      }
      const median = (values: number[]) => values.sort((a, b) => a - b)[2]!;
      // A shortcut for taken emails (no hash) would be several times faster.
      expect(median(takenMs)).toBeGreaterThan(median(newMs) * 0.5);
      expect(median(newMs)).toBeGreaterThan(median(takenMs) * 0.5);
    });

    it("sends a taken email's owner a few notices an hour at most", async () => {
      const owner = await signUp(server());
      for (let i = 0; i < 8; i++) {
        expect((await register(registrationBody({ email: owner.email }))).status).toBe(201);
      }
      const notices = await eventually(
        () => noticesTo(server(), owner.email),
        (mails) => mails.length >= 5,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await noticesTo(server(), owner.email)).length).toBe(notices.length);
      expect(notices).toHaveLength(5);
    });
  },
  { RATE_LIMIT_ENABLED: 'false' },
);
