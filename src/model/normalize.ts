// The sync-ready form of each record: what the service applies. Known properties only, in a
// fixed order; license statuses derived; prices in the display currency; dates as YYYY-MM-DD;
// empty optional texts left out.

import { deriveLicenseStatus, type LicenseStatus } from "./deriveLicenseStatus.js";
import type { PriceConverter } from "./money.js";

/** A user as the service applies it. */
export interface NormalizedUser {
  email: string;
  id?: string;
  firstName?: string;
  lastName?: string;
  status: "active" | "deleted";
  externalStatus?: string;
  roles?: string[];
  lastUsedDate?: string;
}

/** A license as the service applies it (without its users, which come separately). */
export interface NormalizedLicense {
  name: string;
  /** Minor units of the display currency. */
  pricePerUser?: number;
  unassignedAmount?: number;
}

/** A license user as the service applies it. */
export interface NormalizedLicenseUser {
  email: string;
  licenseStatus: LicenseStatus;
}

/** A value JSON.parse gives that is not an object: a record of a file with errors may be one. */
export type NotAnObject = null | boolean | number | string | unknown[];

/**
 * What a normalising pass hands a writer: the sync-ready form of each record. A record it cannot
 * normalise it hands on as read; only a file with errors has one (its report says invalid).
 */
export interface NormalizedValues {
  /** Normalised; as read when not an object. */
  user: NormalizedUser | NotAnObject;
  /** Normalised; as read when not an object. */
  license: NormalizedLicense | NotAnObject;
  /** Normalised; as read when not an object, or when its email is not text (no user to look up). */
  licenseUser: NormalizedLicenseUser | NotAnObject | Readonly<Record<string, unknown>>;
}

type Value = Record<string, unknown>;

// a date-time keeps its date as written (the local date at its offset)
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

const isCents = (v: number) => Number.isSafeInteger(v) && v >= 0;

const text = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** A user's sync-ready form; a missing status is active. */
export function normalizeUser(value: Value): NormalizedUser {
  // built in USER_DETAILS's order (a test holds them to it): a sync normalises millions, and
  // one object made in order costs less than one made, then copied in order
  const out = { email: String(value.email) } as NormalizedUser;
  const id = text(value.id);
  if (id !== undefined) out.id = id;
  const firstName = text(value.firstName);
  if (firstName !== undefined) out.firstName = firstName;
  const lastName = text(value.lastName);
  if (lastName !== undefined) out.lastName = lastName;
  out.status = value.status === "deleted" ? "deleted" : "active";
  const externalStatus = text(value.externalStatus);
  if (externalStatus !== undefined) out.externalStatus = externalStatus;
  if (Array.isArray(value.roles)) out.roles = value.roles.map(String);
  const date = text(value.lastUsedDate);
  if (date !== undefined) out.lastUsedDate = DATE_TIME.test(date) ? date.slice(0, 10) : date;
  return out;
}

/** A license's sync-ready form, its price converted by `prices`. */
export function normalizeLicense(value: Value, prices: PriceConverter): NormalizedLicense {
  const out: NormalizedLicense = { name: String(value.name) };
  const price = value.pricePerUser;
  if (typeof price === "number") out.pricePerUser = isCents(price) ? prices.convert(price) : price;
  if (typeof value.unassignedAmount === "number") out.unassignedAmount = value.unassignedAmount;
  return out;
}

/** A license user's sync-ready form, given the status of the user with that email. */
export function normalizeLicenseUser(value: Value, userStatus: unknown): NormalizedLicenseUser {
  return { email: String(value.email), licenseStatus: deriveLicenseStatus(value.licenseStatus, userStatus) };
}

/** True when a normalising pass normalised this license user: an object whose email is text. */
export function isNormalizedLicenseUser(
  value: NormalizedValues["licenseUser"],
): value is NormalizedLicenseUser {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && typeof value.email === "string"
  );
}
