// Records from a reader into a DocumentWriter: as read, or normalised on the way, the sync-ready
// form of each user, license and license user. A license status is derived from its user's
// status, so when licenses come before users (JSON allows it) the licenses wait, in a spill
// list, until every user has been read.

import type { DataRecord } from "../model/DataRecord.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { PriceConverter } from "../model/money.js";
import {
  type NormalizedUser,
  type NormalizedValues,
  type NotAnObject,
  normalizeLicense,
  normalizeLicenseUser,
  normalizeUser,
} from "../model/normalize.js";
import { AddressSet } from "../spill/AddressSet.js";
import { SpillList } from "../spill/SpillList.js";

/** Hands a pass's records to a writer: `end()` after the last, `dispose()` always. */
export interface RecordRouter {
  record(record: DataRecord): void;
  /**
   * Where a license's users may go at once as the JSON writer's items (PassOptions), when the
   * writer takes values as read so; null otherwise.
   */
  readonly licenseUserItems: ((license: number, count: number, items: Iterable<Uint8Array>) => void) | null;
  /** After the last record: what was held back, then the writer's end. */
  end(): void;
  /** Deletes temporary files of an abandoned pass. */
  dispose(): void;
}

/** Passes each record's value to the writer as read, in the reader's order. */
export class AsReadRouter implements RecordRouter {
  readonly #writer: DocumentWriter;

  readonly licenseUserItems: RecordRouter["licenseUserItems"];

  constructor(writer: DocumentWriter) {
    this.#writer = writer;
    const items = writer.licenseUserItems;
    this.licenseUserItems = items
      ? (license, count, bytes) => items.call(writer, license, count, bytes)
      : null;
  }

  record(record: DataRecord): void {
    if (record.kind === "user") this.#writer.user(record.value);
    else if (record.kind === "license") this.#writer.license(record.index, record.value, record.userCount);
    else this.#writer.licenseUser(record.licenseIndex, record.value, record.afterUsers);
  }

  end(): void {
    this.#writer.end();
  }

  dispose(): void {}
}

type Held = ["license", number, unknown, number] | ["licenseUser", number, unknown];

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Passes the sync-ready form of each record to the writer, prices converted by `prices`. */
export class NormalizingRouter implements RecordRouter {
  readonly #writer: DocumentWriter<NormalizedValues>;
  readonly #prices: PriceConverter;
  /**
   * Deleted users' emails (128 k in the hash table, about 3 MB, the rest in compact runs at 6.5
   * bytes each; their addresses decide while in memory: AddressSet.has). A table of 1 M took
   * 20 MB of a 4 GB sync whose users are a tenth deleted, 15 more than the 1 GB sync's.
   */
  readonly #deleted = new AddressSet(128 * 1024);
  #held: SpillList<Held> | null = null;
  /** A normalised license user is no longer as read. */
  readonly licenseUserItems = null;

  constructor(writer: DocumentWriter<NormalizedValues>, prices: PriceConverter) {
    this.#writer = writer;
    this.#prices = prices;
  }

  record(record: DataRecord): void {
    const value = record.value;
    if (record.kind === "user") {
      this.#writer.user(isObject(value) ? this.#user(value) : asRead(value));
    } else if (record.kind === "license") {
      if (this.#held) this.#held.push(["license", record.index, value, record.userCount]);
      else this.#license(record.index, value, record.userCount);
    } else {
      if (!record.afterUsers && !this.#held) this.#held = new SpillList<Held>(10_000);
      if (this.#held) this.#held.push(["licenseUser", record.licenseIndex, value]);
      else this.#licenseUser(record.licenseIndex, value, record.afterUsers);
    }
  }

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

  dispose(): void {
    this.#held?.dispose();
    this.#deleted.dispose();
  }

  #user(value: Record<string, unknown>): NormalizedUser {
    const user = normalizeUser(value);
    if (user.status === "deleted") this.#deleted.add(user.email, 0);
    return user;
  }

  #license(index: number, value: unknown, userCount: number): void {
    this.#writer.license(
      index,
      isObject(value) ? normalizeLicense(value, this.#prices) : asRead(value),
      userCount,
    );
  }

  #licenseUser(licenseIndex: number, value: unknown, afterUsers: boolean): void {
    if (!isObject(value)) {
      this.#writer.licenseUser(licenseIndex, asRead(value), afterUsers);
      return;
    }
    if (typeof value.email !== "string") {
      this.#writer.licenseUser(licenseIndex, value, afterUsers); // no user to look up: as read
      return;
    }
    const deleted = this.#deleted.has(value.email);
    this.#writer.licenseUser(
      licenseIndex,
      normalizeLicenseUser(value, deleted ? "deleted" : "active"),
      afterUsers,
    );
  }
}

/** A value that is not an object, handed on as read (a record holds what JSON.parse gives). */
function asRead(value: unknown): NotAnObject {
  if (
    value === null ||
    typeof value === "boolean" ||
    typeof value === "number" ||
    typeof value === "string" ||
    Array.isArray(value)
  )
    return value;
  throw new TypeError(`a record's value is not JSON: ${typeof value}`); // a bug in a reader
}
