import type { ColumnType, Generated } from 'kysely';

/**
 * The database as Kysely sees it. Each resource adds its tables here, next to the migration that
 * creates them (server/db/migrations/).
 */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export interface AppMetaTable {
  key: string;
  value: string;
  updated_at: Generated<Timestamp>;
}

export interface Database {
  app_meta: AppMetaTable;
}
