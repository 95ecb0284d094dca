// The SQL of uploads and registered files: what the storage received, and what was registered.

import type { Sql } from "./Database.js";
import type { FilesRepository, StoredFile, Upload } from "./types.js";

/** Uploads and registered files, in a PostgreSQL database. */
export class SqlFilesRepository implements FilesRepository {
  readonly #db: Sql;

  constructor(db: Sql) {
    this.#db = db;
  }

  async recordUpload(path: string, contentType: string, size: number): Promise<void> {
    await this.#db.query(
      `INSERT INTO uploads (path, content_type, size, uploaded_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (path) DO UPDATE SET content_type = $2, size = $3, uploaded_at = now()`,
      [path, contentType, size],
    );
  }

  async upload(path: string): Promise<Upload | null> {
    const { rows } = await this.#db.query<{ content_type: string; size: number }>(
      "SELECT content_type, size FROM uploads WHERE path = $1",
      [path],
    );
    const row = rows[0];
    return row ? { contentType: row.content_type, size: row.size, pin: null } : null;
  }

  async register(
    path: string,
    type: string,
    upload: Upload,
    uploadedBy: number | null = null,
  ): Promise<number> {
    const { rows } = await this.#db.query<{ id: number }>(
      `INSERT INTO files (path, type, content_type, size, object_pin, uploaded_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [path, type, upload.contentType, upload.size, upload.pin, uploadedBy],
    );
    return (rows[0] as { id: number }).id;
  }

  async file(id: number): Promise<StoredFile | null> {
    const { rows } = await this.#db.query<StoredFile>(
      `SELECT path, type, object_pin AS pin, created_at AS "createdAt", uploaded_by AS "uploadedBy"
       FROM files WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    // a timestamptz is a Date from pg, and text from the embedded database's thread
    return row ? { ...row, createdAt: new Date(row.createdAt) } : null;
  }

  async registered(path: string): Promise<boolean> {
    const { rows } = await this.#db.query<{ registered: boolean }>(
      "SELECT EXISTS (SELECT 1 FROM files WHERE path = $1) AS registered",
      [path],
    );
    return rows[0]?.registered === true;
  }

  async contentTypeAt(path: string): Promise<string | null> {
    const { rows } = await this.#db.query<{ content_type: string }>(
      "SELECT content_type FROM uploads WHERE path = $1 UNION ALL (SELECT content_type FROM files WHERE path = $1 ORDER BY id DESC LIMIT 1)",
      [path],
    );
    return rows[0]?.content_type || null;
  }
}
