import type { Db } from '../db/index.ts';
import type { UserRow } from '../auth/queries.ts';

/** SQL of the profile. The person's row is mobile_user (created at first sign-in, server/auth). */

export interface ProfileChange {
  name?: string;
  allowMarketing?: boolean;
}

/**
 * Writes the fields given, in one statement, and returns the row as it is now; undefined when the
 * person no longer exists. Nothing given: the row as it is.
 */
export async function updateProfile(db: Db, userId: string, change: ProfileChange): Promise<UserRow | undefined> {
  const set = {
    ...(change.name !== undefined ? { name: change.name } : {}),
    ...(change.allowMarketing !== undefined ? { allow_marketing: change.allowMarketing } : {}),
  };
  const columns = ['id', 'mobile_number', 'name', 'allow_marketing', 'created_at'] as const;
  if (Object.keys(set).length === 0) {
    return db.selectFrom('mobile_user').select(columns).where('id', '=', userId).executeTakeFirst();
  }
  return db.updateTable('mobile_user').set(set).where('id', '=', userId).returning(columns).executeTakeFirst();
}
