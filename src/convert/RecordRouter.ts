// Records from a reader into a DocumentWriter, normalised on the way when asked: the sync-ready
// form of each user, license and license user. A license status is derived from its user's
// status, so when licenses come before users (JSON allows it) the licenses wait, in a spill
// list, until every user has been read.

import { FingerprintSet } from "../_internal/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../_internal/fingerprint.js";
import { SpillList } from "../_internal/SpillList.js";
import type { DataRecord } from "../model/DataRecord.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { PriceConverter } from "../model/money.js";
import { normalizeLicense, normalizeLicenseUser, normalizeUser } from "../model/normalize.js";

type Held = ["license", number, unknown, number] | ["licenseUser", number, unknown];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Passes records to a writer, normalised when `prices` is given. */
export class RecordRouter {
  readonly #writer: DocumentWriter;
  readonly #prices: PriceConverter | null;
  readonly #deleted = new FingerprintSet();
  #held: SpillList<Held> | null = null;

  /** `prices`: normalise with this converter; null: pass values as read. */
  constructor(writer: DocumentWriter, prices: PriceConverter | null) {
    this.#writer = writer;
    this.#prices = prices;
  }

  record(record: DataRecord): void {
    const value = record.value;
    if (record.kind === "user") {
      this.#writer.user(this.#prices && isObject(value) ? this.#user(value) : value);
    } else if (record.kind === "license") {
      if (this.#held) this.#held.push(["license", record.index, value, record.userCount]);
      else this.#license(record.index, value, record.userCount);
    } else {
      if (this.#prices && !record.afterUsers && !this.#held) this.#held = new SpillList<Held>(10_000);
      if (this.#held) this.#held.push(["licenseUser", record.licenseIndex, value]);
      else this.#licenseUser(record.licenseIndex, value, record.afterUsers);
    }
  }

  /** After the last record: the held licenses, then the writer's end. */
  end(): void {
    const held = this.#held;
    this.#held = null;
    if (held) {
      for (const item of held) {
        if (item[0] === "license") this.#license(item[1], item[2], item[3]);
        else this.#licenseUser(item[1], item[2], true);
      }
      held.dispose();
    }
    this.#writer.end();
  }

  /** Deletes temporary files of an abandoned pass. */
  dispose(): void {
    this.#held?.dispose();
  }

  #user(value: Record<string, unknown>): unknown {
    const user = normalizeUser(value);
    if (user.status === "deleted") {
      fingerprint(user.email, true);
      this.#deleted.add(lastFingerprint.h1, lastFingerprint.h2, 0);
    }
    return user;
  }

  #license(index: number, value: unknown, userCount: number): void {
    const prices = this.#prices;
    this.#writer.license(
      index,
      prices && isObject(value) ? normalizeLicense(value, prices) : value,
      userCount,
    );
  }

  #licenseUser(licenseIndex: number, value: unknown, afterUsers: boolean): void {
    if (this.#prices && isObject(value) && typeof value.email === "string") {
      fingerprint(value.email, true);
      const deleted = this.#deleted.get(lastFingerprint.h1, lastFingerprint.h2) >= 0;
      value = normalizeLicenseUser(value, deleted ? "deleted" : "active");
    }
    this.#writer.licenseUser(licenseIndex, value, afterUsers);
  }
}
