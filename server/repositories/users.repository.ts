/** The users table: accounts, their credentials, roles and public profiles. */
import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { announceForgotten } from '../events/cache-invalidation.ts';
import type { RepositoryCaches } from './caches.ts';
import type { Database, UsersTable } from '../db/schema.ts';

export const PROFILE_COLUMNS = [
  'uid',
  'username',
  'user_nickname',
  'avatar',
  'signature',
  'gender',
  'user_birthday',
  'labels',
  'website_name',
  'website_url',
  'roles',
  'created_at',
  'updated_at',
  'is_updated_after_review',
] as const;
export type ProfileRow = Pick<Selectable<UsersTable>, (typeof PROFILE_COLUMNS)[number]>;
export type ProfileChanges = Pick<
  Updateable<UsersTable>,
  | 'username'
  | 'user_nickname'
  | 'avatar'
  | 'signature'
  | 'gender'
  | 'user_birthday'
  | 'labels'
  | 'website_name'
  | 'website_url'
  | 'is_updated_after_review'
>;
export type NewUser = Pick<
  Insertable<UsersTable>,
  'email' | 'username' | 'user_nickname' | 'password_hash' | 'roles' | 'interface_language' | 'is_updated_after_review'
>;
/** A write refused by a unique index: which of the unique columns was already someone's. */
export interface Taken {
  taken: 'email' | 'username';
}

/** The unique column a failed write collided with (PostgreSQL's unique_violation), else null. */
function takenBy(error: unknown): Taken | null {
  const { code, constraint } = (error ?? {}) as { code?: string; constraint?: string };
  if (code !== '23505') return null;
  return { taken: String(constraint ?? '').includes('email') ? 'email' : 'username' };
}

export function createUsersRepository(db: Kysely<Database>, caches: Pick<RepositoryCaches, 'notices'>) {
  return {
    /** Whether any account is root or administrator (a new site has none until the CLI makes one). */
    async hasStaff(): Promise<boolean> {
      return !!(await db
        .selectFrom('users')
        .select('uid')
        .where(sql<boolean>`roles && ARRAY['root', 'administrator']::text[]`)
        .limit(1)
        .executeTakeFirst());
    },

    /** The uid of an address, compared without case. */
    async uidByEmail(email: string): Promise<number | null> {
      const row = await db
        .selectFrom('users')
        .select('uid')
        .where(sql`lower(email)`, '=', email.toLowerCase())
        .executeTakeFirst();
      return row?.uid ?? null;
    },

    /** Exact comparison without case (never a pattern match). */
    async usernameExists(username: string): Promise<boolean> {
      return !!(await db
        .selectFrom('users')
        .select('uid')
        .where(sql`lower(username)`, '=', username.toLowerCase())
        .executeTakeFirst());
    },

    /** The new uid, or which unique column (two registrations racing) was taken first. */
    async insert(user: NewUser): Promise<{ uid: number } | Taken> {
      try {
        return await db.insertInto('users').values(user).returning('uid').executeTakeFirstOrThrow();
      } catch (error) {
        const taken = takenBy(error);
        if (taken) return taken;
        throw error;
      }
    },

    /** What a credential check needs: never leaves the server. */
    credentials: (uid: number) =>
      db
        .selectFrom('users')
        .select(['uid', 'email', 'username', 'password_hash'])
        .where('uid', '=', uid)
        .executeTakeFirst(),

    /** The owner's own account fields (user/self). */
    self: (uid: number) =>
      db
        .selectFrom('users')
        .select(['uid', 'email', 'roles', 'username', 'user_nickname', 'avatar', 'signature', 'gender', 'created_at'])
        .where('uid', '=', uid)
        .executeTakeFirst(),

    async emailOf(uid: number): Promise<string | null> {
      const row = await db
        .selectFrom('users')
        .select('email')
        .where('uid', '=', uid)
        .where(sql<boolean>`email IS NOT NULL`)
        .executeTakeFirst();
      return row?.email ?? null;
    },

    /** Where and in which language to write to a member. */
    mailTo: (uid: number) =>
      db
        .selectFrom('users')
        .select(['email', 'interface_language', 'username'])
        .where('uid', '=', uid)
        .executeTakeFirst(),

    async createdAt(uid: number): Promise<Date | null> {
      const row = await db.selectFrom('users').select('created_at').where('uid', '=', uid).executeTakeFirst();
      return row ? new Date(row.created_at) : null;
    },

    profile: (uid: number): Promise<ProfileRow | undefined> =>
      db.selectFrom('users').select(PROFILE_COLUMNS).where('uid', '=', uid).executeTakeFirst(),

    /** A page of profiles, optionally only those changed since their last review, with the total. */
    async profilePage(q: {
      onlyUpdated: boolean;
      orderBy: 'created_at' | 'updated_at' | 'username' | 'uid';
      direction: 'asc' | 'desc';
      limit: number;
      offset: number;
    }) {
      const users = q.onlyUpdated
        ? db.selectFrom('users').where('is_updated_after_review', '=', true)
        : db.selectFrom('users');
      const [rows, total] = await Promise.all([
        users
          .select(PROFILE_COLUMNS)
          .orderBy(q.orderBy, q.direction)
          .orderBy('uid', 'asc')
          .limit(q.limit)
          .offset(q.offset)
          .execute(),
        users.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    /** A page of the accounts with the blocked role, the latest changed first, with the total. */
    async blockedPage(limit: number, offset: number) {
      const blocked = db.selectFrom('users').where(sql<boolean>`'blocked' = ANY(roles)`);
      const [rows, total] = await Promise.all([
        blocked
          .select(['uid', 'username', 'user_nickname', 'avatar', 'updated_at'])
          .orderBy('updated_at', 'desc')
          .limit(limit)
          .offset(offset)
          .execute(),
        blocked.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { rows, total: Number(total.n) };
    },

    /**
     * Locks every root account and the target (FOR UPDATE, so two demotions cannot both see
     * another root left); answers how many roots there are and the target's roles (null: no such
     * account). Only meaningful inside a transaction, which holds the locks until it ends.
     */
    async lockForRoleChange(uid: number): Promise<{ rootCount: number; roles: string[] | null }> {
      const roots = await db
        .selectFrom('users')
        .select('uid')
        .where(sql<boolean>`'root' = ANY(roles)`)
        .forUpdate()
        .execute();
      const target = await db
        .selectFrom('users')
        .select(['uid', 'roles'])
        .where('uid', '=', uid)
        .forUpdate()
        .executeTakeFirst();
      return { rootCount: roots.length, roles: target?.roles ?? null };
    },

    async setRoles(uid: number, roles: string[]): Promise<void> {
      await db.updateTable('users').set({ roles, updated_at: new Date() }).where('uid', '=', uid).execute();
    },

    async setPasswordHash(uid: number, passwordHash: string): Promise<void> {
      await db
        .updateTable('users')
        .set({ password_hash: passwordHash, updated_at: new Date() })
        .where('uid', '=', uid)
        .execute();
    },

    async setEmail(uid: number, email: string): Promise<void> {
      await db.updateTable('users').set({ email, updated_at: new Date() }).where('uid', '=', uid).execute();
    },

    /** Changes profile fields (and the edit time): false when there is no such account. */
    async updateProfile(uid: number, changes: ProfileChanges): Promise<boolean | Taken> {
      try {
        const done = await db
          .updateTable('users')
          .set({ ...changes, updated_at: new Date() })
          .where('uid', '=', uid)
          .executeTakeFirst();
        // The name, avatar and signature are on guests' pages (the member's page, their uploads).
        announceForgotten(caches.notices, { cache: 'pages' });
        return Number(done.numUpdatedRows) === 1;
      } catch (error) {
        const taken = takenBy(error);
        if (taken) return taken;
        throw error;
      }
    },

    /** Marks a profile reviewed, leaving its edit time: false when there is no such account. */
    async markReviewed(uid: number): Promise<boolean> {
      const done = await db
        .updateTable('users')
        .set({ is_updated_after_review: false })
        .where('uid', '=', uid)
        .executeTakeFirst();
      return Number(done.numUpdatedRows) === 1;
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
