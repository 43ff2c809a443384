import { hash, verify } from '@node-rs/argon2';
import { readFileSync } from 'node:fs';

/** Argon2id with OWASP's 19 MiB / 2 passes / 1 lane profile (@node-rs/argon2 defaults to Argon2id). */
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string | null | undefined, password: string): Promise<boolean> {
  if (!passwordHash) {
    // Spend the same time as a real check, so a response time never tells whether an account exists.
    await verify(await dummyHash(), password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

let dummy: Promise<string> | undefined;
const dummyHash = () => (dummy ??= hashPassword('timing equaliser for accounts that do not exist'));

/** The most common passwords, lower-cased (server/auth/common-passwords.txt). */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line && !line.startsWith('#')),
);
