import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | undefined, never>;

/** Tables of the database; each later feature adds its own in a new migration. */
export interface UsersTable {
  uid: Generated<number>;
  username: string;
  user_nickname: string | null;
  roles: ColumnType<string[], string[] | undefined, string[]>;
  created_at: CreatedAt;
}

export interface SessionsTable {
  /** SHA-256 of the session token: the token itself is never stored. */
  token_hash: string;
  uid: number;
  created_at: CreatedAt;
  expires_at: Date;
}

export interface VideosTable {
  video_id: Generated<number>;
  uploader_uid: number;
  title: string;
  status: ColumnType<'pending' | 'approved' | 'deleted', 'pending' | 'approved' | 'deleted' | undefined>;
  created_at: CreatedAt;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  videos: VideosTable;
}
