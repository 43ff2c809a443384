/** SQL the history lists embed to keep only what the member liked (the "liked" history filter). */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { MediaTargetType } from '../db/schema.ts';

/** SQL: the item in `idColumn`, of `type`, is liked by `uid`. */
export function likedBy(uid: number, type: MediaTargetType, idColumn: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM media_likes ml WHERE ml.uid = ${uid} AND ml.target_type = ${type} AND ml.target_id = ${sql.ref(idColumn)})`;
}
