import { randomBytes } from 'node:crypto';
import type { Transfer } from '@platform/contracts';
import type { TestServer } from '../../test/harness.ts';
import { type SignedUp, signUp } from '../auth/test-support.ts';

export type Member = SignedUp & { username: string; id: string; token: string };

/** Signs up and picks a username (transfers are addressed by username). */
export async function signUpMember(server: TestServer): Promise<Member> {
  const user = await signUp(server);
  const username = `u_${randomBytes(6).toString('hex')}`;
  const set = await server.request('PUT', `/v1/accounts/${user.session.account_id}/profile`, {
    token: user.session.token,
    body: { username },
  });
  if (set.status !== 200) throw new Error(`username not set: ${JSON.stringify(set.body)}`);
  return { ...user, username, id: user.session.account_id, token: user.session.token };
}

export function sendTransfer(server: TestServer, from: Member, body: Record<string, unknown>, idempotencyKey?: string) {
  return server.request('POST', '/api/v1/wallet/transfer', {
    token: from.token,
    body,
    ...(idempotencyKey ? { headers: { 'idempotency-key': idempotencyKey } } : {}),
  }) as Promise<{ status: number; body: Transfer & { error?: { code: string; message: string } } }>;
}

/** Polls the status call as the client's popup does, until the transfer leaves CREATED and WAITING. */
export async function settled(server: TestServer, viewer: Member, id: string): Promise<Transfer> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const status = await server.request('GET', `/api/v1/wallet/transfer/${id}/status`, { token: viewer.token });
    const transfer = (status.body as { result: Transfer }).result;
    if (transfer.status === 'FINISHED' || transfer.status === 'REJECTED') return transfer;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`transfer ${id} did not settle`);
}
