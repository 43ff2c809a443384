/**
 * What the database holds, as one comparable value: every table's rows, hashed in the database
 * (PGlite and PostgreSQL alike). Refused requests must leave it as it was. The rate-limit
 * counters are left out (a refused request is still counted), and sessions by their number only
 * (a session in use may have its expiry moved).
 */
import { sql, type Kysely } from 'kysely';

const COUNTED_ONLY = new Set(['sessions']);
const LEFT_OUT = new Set(['rate_limits']);

export async function databaseFingerprint(db: Kysely<any>): Promise<Record<string, string>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'kysely_%'
    ORDER BY table_name`.execute(db);
  const fingerprint: Record<string, string> = {};
  for (const { name } of tables.rows) {
    if (LEFT_OUT.has(name)) continue;
    const row = COUNTED_ONLY.has(name)
      ? (await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(name)}`.execute(db)).rows[0].n
      : (
          await sql<{
            h: string;
          }>`SELECT count(*)::text || ':' || md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${sql.table(name)} AS t`.execute(
            db,
          )
        ).rows[0].h;
    fingerprint[name] = row;
  }
  return fingerprint;
}
