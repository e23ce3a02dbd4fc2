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

/** 002_auth: a person who signs in with a mobile number. */
export interface MobileUserTable {
  id: Generated<string>;
  mobile_number: string;
  name: string | null;
  allow_marketing: Generated<boolean>;
  created_at: Generated<Timestamp>;
}

/** 002_auth: one verification code sent by SMS (code and token stored hashed). */
export interface AuthVerificationTable {
  id: Generated<string>;
  token_hash: string;
  mobile_number: string;
  code_hash: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  sent_at: Timestamp | null;
  send_failed_at: Timestamp | null;
  failed_attempts: Generated<number>;
  consumed_at: Timestamp | null;
  voided_at: Timestamp | null;
}

/** 002_auth: an opaque refresh token (stored hashed); rotation keeps the family. */
export interface AuthRefreshTokenTable {
  id: Generated<string>;
  token_hash: string;
  family_id: string;
  user_id: string;
  device_id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  revoked_at: Timestamp | null;
}

/** 002_auth: one counted event for a sliding-window rate limit. */
export interface AuthRateEventTable {
  id: Generated<number>;
  kind: string;
  key: string;
  at: Timestamp;
}

/** 002_auth: the sandbox SMS outbox. */
export interface SandboxSmsTable {
  id: Generated<number>;
  to_number: string;
  body: string;
  sent_at: Timestamp;
}

export interface Database {
  app_meta: AppMetaTable;
  mobile_user: MobileUserTable;
  auth_verification: AuthVerificationTable;
  auth_refresh_token: AuthRefreshTokenTable;
  auth_rate_event: AuthRateEventTable;
  sandbox_sms: SandboxSmsTable;
}
