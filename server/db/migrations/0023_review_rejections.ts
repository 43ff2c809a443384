import { sql, type Kysely } from 'kysely';

/**
 * A reviewer refuses a video, track or photo post with a reason (one of the review reasons of
 * src/lib/api/contracts/common.constants.ts) and an optional note for the uploader: the item is removed as
 * before (status 'deleted', by the reviewer), and the uploader reads why in their own lists.
 * And the profile review queue stops holding accounts nobody needs to review: staff accounts
 * and the demo uploaders start out reviewed (as new ones now do, services/accounts.ts).
 */
const TABLES = ['videos', 'audio_tracks', 'photos'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN rejection_reason text, ADD COLUMN rejection_note text`.execute(
      db,
    );
  }
  await sql`UPDATE users SET is_updated_after_review = false
    WHERE is_updated_after_review AND (roles && ARRAY['root', 'administrator']::text[] OR lower(email) LIKE '%@demo.kiraboshi.localhost')`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN rejection_reason, DROP COLUMN rejection_note`.execute(db);
  }
}
