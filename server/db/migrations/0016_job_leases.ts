import type { Kysely } from 'kysely';

/**
 * Who holds a running job: `host:pid:token`, set when a worker claims it. The token lets a worker
 * renew, finish or hand back only a job it still holds (after its lease was lost, another worker
 * may hold it); the host and pid let a worker starting on the same machine take back at once the
 * jobs of a process that is gone, instead of waiting for their leases to run out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('locked_by', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').dropColumn('locked_by').execute();
}
