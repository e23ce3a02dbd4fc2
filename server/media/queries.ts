import type { Selectable } from 'kysely';
import type { Db, Tx } from '../db/index.ts';
import type { MediaFileTable } from '../db/schema.ts';

type Executor = Db | Tx;
export type Role = MediaFileTable['role'];

/** A media_file row as it is written (the database gives its id and created_at). */
export type NewFile = Omit<Selectable<MediaFileTable>, 'id' | 'created_at'>;

/** The greetie an upload names: who sent it and whether it is still a draft. */
export function uploadTarget(db: Executor, id: string) {
  return db.selectFrom('greetie').select(['id', 'sender_id', 'status']).where('id', '=', id).executeTakeFirst();
}

/** Replaces the greetie's files of these roles with `files`; answers the storage keys it removed. */
export async function replaceFiles(tx: Tx, greetieId: string, roles: Role[], files: NewFile[]): Promise<string[]> {
  const removed = roles.length
    ? await tx.deleteFrom('media_file').where('greetie_id', '=', greetieId).where('role', 'in', roles).returning('storage_key').execute()
    : [];
  if (files.length) await tx.insertInto('media_file').values(files).execute();
  return removed.map((r) => r.storage_key);
}

/** A stored file by its key, with what deciding who may read it needs: its role and its greetie's status. */
export function fileByKey(db: Executor, storageKey: string) {
  return db
    .selectFrom('media_file as f')
    .innerJoin('greetie as g', 'g.id', 'f.greetie_id')
    .select(['f.storage_key', 'f.role', 'f.content_type', 'f.size', 'g.status'])
    .where('f.storage_key', '=', storageKey)
    .executeTakeFirst();
}
