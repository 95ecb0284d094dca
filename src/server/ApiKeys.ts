// Bearer API keys: from SYNCFILE_API_KEYS, or one created on first start and kept in the data
// directory. Keys are compared as SHA-256 digests in constant time, every key every time.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { join } from "node:path";
import { createOnce } from "./_createOnce.js";

/** The outcome of checking an Authorization header. */
export type KeyCheck = { ok: true; id: string; number: number } | { ok: false; message: string };

/** The keys a server accepts. */
export class ApiKeys {
  readonly #digests: Buffer[];

  constructor(keys: readonly string[]) {
    if (keys.length === 0) throw new RangeError("at least one API key is needed");
    this.#digests = keys.map(digest);
  }

  /**
   * The keys given, or else the data directory's own (created on first start). `created` is
   * the new key when one was just made, so that it can be shown once.
   */
  static forDataDir(
    dataDir: string,
    given: readonly string[] = [],
  ): { keys: ApiKeys; created: string | null } {
    if (given.length > 0) return { keys: new ApiKeys(given), created: null };
    const { value, created } = createOnce(
      join(dataDir, "api-key"),
      () => `sf_${randomBytes(24).toString("base64url")}`,
    );
    return { keys: new ApiKeys([value]), created: created ? value : null };
  }

  /** Parses comma-separated keys (SYNCFILE_API_KEYS); blanks are ignored. */
  static parseList(text: string | undefined): string[] {
    return (text ?? "")
      .split(",")
      .map((k) => k.trim())
      .filter((k) => k !== "");
  }

  /**
   * Checks `Authorization: Bearer <key>`; the id (a digest prefix) names the key for rate limits,
   * the number is its place in the list (from 1), which a registered file keeps as its uploader.
   */
  check(header: string | undefined): KeyCheck {
    if (header === undefined || header.trim() === "") {
      return { ok: false, message: "missing API key: send the header Authorization: Bearer <API key>" };
    }
    const m = /^Bearer +(\S+)\s*$/i.exec(header);
    if (!m) return { ok: false, message: "malformed Authorization header: expected Bearer <API key>" };
    const given = digest(m[1] as string);
    let found = -1;
    this.#digests.forEach((d, i) => {
      if (timingSafeEqual(d, given) && found < 0) found = i;
    });
    if (found < 0) return { ok: false, message: "invalid API key" };
    return { ok: true, id: given.toString("hex").slice(0, 16), number: found + 1 };
  }
}

function digest(key: string): Buffer {
  return createHash("sha256").update(key).digest();
}
