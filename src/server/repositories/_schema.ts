// The tables. Plain PostgreSQL: the same statements run on a PostgreSQL server.

/**
 * What a registration keeps of its object (the pin: a bucket's version or ETag, see
 * types.ts Upload), and finding a path's registrations: added to a database of an earlier
 * release as well (PostgreSQL: a migration; the embedded one runs SCHEMA at every start).
 */
export const FILES_PIN = `
ALTER TABLE files ADD COLUMN IF NOT EXISTS object_pin text;
CREATE INDEX IF NOT EXISTS files_path ON files (path);
`;

/**
 * What each sync changed against the account's state before it (changes.ts): the sync it was
 * compared with, the counts and users taken away, and the changes themselves (the last
 * KEPT_CHANGES syncs of each account keep theirs), in the order `syncfile diff` tells them.
 */
export const SYNC_HISTORY = `
ALTER TABLE syncs ADD COLUMN IF NOT EXISTS previous_sync bigint;
ALTER TABLE syncs ADD COLUMN IF NOT EXISTS changes json;
ALTER TABLE syncs ADD COLUMN IF NOT EXISTS changes_kept boolean NOT NULL DEFAULT false;
CREATE INDEX IF NOT EXISTS syncs_app_account ON syncs (app_account, id);
CREATE TABLE IF NOT EXISTS sync_changes (
  sync_id bigint NOT NULL,
  seq int NOT NULL,
  kind text NOT NULL,
  change json NOT NULL,
  PRIMARY KEY (sync_id, seq)
);
`;

/** The API key that registered a file (GET /v1.0/files/{id} answers it as uploadedBy). */
export const FILES_UPLOADER = `
ALTER TABLE files ADD COLUMN IF NOT EXISTS uploaded_by int;
`;

/**
 * The API key that started a sync (the history answers it as syncedBy), as files.uploaded_by
 * keeps a file's: null for a sync made before the column was added.
 */
export const SYNCS_SYNCER = `
ALTER TABLE syncs ADD COLUMN IF NOT EXISTS synced_by int;
`;

/** Creates what is missing; safe to run at every start. */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS files (
  id bigserial PRIMARY KEY,
  path text NOT NULL,
  type text NOT NULL,
  content_type text NOT NULL,
  size bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS uploads (
  path text PRIMARY KEY,
  content_type text NOT NULL,
  size bigint NOT NULL,
  uploaded_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS app_accounts (
  id bigint PRIMARY KEY,
  current_sync bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS syncs (
  id bigserial PRIMARY KEY,
  app_account bigint NOT NULL,
  file_id bigint NOT NULL,
  format text NOT NULL,
  state text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  summary json
);
CREATE TABLE IF NOT EXISTS sync_lock (
  id int PRIMARY KEY CHECK (id = 1),
  sync_id bigint NOT NULL,
  holder_pid int NOT NULL,
  started_at timestamptz NOT NULL
);
CREATE TABLE IF NOT EXISTS account_users (
  sync_id bigint NOT NULL,
  idx int NOT NULL,
  email text NOT NULL,
  external_id text,
  first_name text,
  last_name text,
  status text NOT NULL,
  external_status text,
  roles jsonb,
  last_used_date date,
  PRIMARY KEY (sync_id, idx)
);
CREATE TABLE IF NOT EXISTS account_licenses (
  sync_id bigint NOT NULL,
  idx int NOT NULL,
  name text NOT NULL,
  price_per_user bigint,
  currency text NOT NULL,
  unassigned_amount bigint,
  PRIMARY KEY (sync_id, idx)
);
CREATE TABLE IF NOT EXISTS account_license_users (
  sync_id bigint NOT NULL,
  license_idx int NOT NULL,
  idx int NOT NULL,
  email text NOT NULL,
  license_status text NOT NULL,
  PRIMARY KEY (sync_id, license_idx, idx)
);
CREATE INDEX IF NOT EXISTS account_license_users_email ON account_license_users (sync_id, lower(email));
CREATE TABLE IF NOT EXISTS campaigns (
  id bigint PRIMARY KEY,
  name text NOT NULL
);
CREATE TABLE IF NOT EXISTS executions (
  id bigint PRIMARY KEY,
  campaign_id bigint NOT NULL REFERENCES campaigns (id),
  final_state text NOT NULL,
  start_time timestamptz NOT NULL,
  completion_time timestamptz,
  applications jsonb NOT NULL,
  report_file_id bigint,
  report_claimed_at timestamptz
);
${FILES_PIN}
${SYNC_HISTORY}
${FILES_UPLOADER}
${SYNCS_SYNCER}`;
