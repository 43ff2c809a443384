/**
 * The administration commands of `npm run cli` (scripts/cli.ts) that need the database: run by
 * the CLI itself when it can open the database, or by the running server for it over the admin
 * socket (admin-socket.ts) while the server holds the embedded database.
 */
import type { Repositories } from '../repositories/index.ts';
import { insertAccount } from '../services/accounts.ts';
import { createInvitationCode } from '../services/invitations.ts';
import { ROLES } from '../../src/lib/policy/policy.ts';

export type AdminRequest =
  | { command: 'user:create'; email: string; username: string; password: string; nickname?: string; role: string }
  | { command: 'invite:create'; count: number };

/** A request as read from the socket: anything else is refused before it reaches a service. */
export function parseAdminRequest(value: unknown): AdminRequest | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const text = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 1000;
  if (
    v.command === 'user:create' &&
    text(v.email) &&
    text(v.username) &&
    text(v.password) &&
    (v.nickname === undefined || text(v.nickname)) &&
    typeof v.role === 'string' &&
    (ROLES as readonly string[]).includes(v.role)
  ) {
    return {
      command: 'user:create',
      email: v.email as string,
      username: v.username as string,
      password: v.password as string,
      nickname: v.nickname as string | undefined,
      role: v.role,
    };
  }
  if (v.command === 'invite:create' && Number.isInteger(v.count))
    return { command: 'invite:create', count: v.count as number };
  return null;
}

/** Runs one command; answers the lines to print (a domain error is thrown as it is). */
export async function runAdminCommand(
  repositories: Pick<Repositories, 'users' | 'invitations'>,
  request: AdminRequest,
): Promise<string[]> {
  if (request.command === 'user:create') {
    // The operator made this account: its profile needs no review.
    const uid = await insertAccount(repositories, {
      email: request.email,
      username: request.username,
      password: request.password,
      userNickname: request.nickname,
      roles: [request.role],
      reviewed: true,
    });
    return [`Created user ${request.username} (uid ${uid}) with the role ${request.role}.`];
  }
  const count = Math.min(Math.max(request.count || 1, 1), 100);
  const codes: string[] = [];
  for (let i = 0; i < count; i++) codes.push((await createInvitationCode(repositories, null)).invitationCode);
  return codes;
}
