// A license user's status when the file leaves it out: the user's own.

/** A license status: active, inactive or deleted. */
export type LicenseStatus = "active" | "inactive" | "deleted";

/**
 * The license status of a license user: the given one, or derived from the user's status
 * (deleted → deleted, active or unknown → active).
 */
export function deriveLicenseStatus(given: unknown, userStatus: unknown): LicenseStatus {
  if (given === "active" || given === "inactive" || given === "deleted") return given;
  return userStatus === "deleted" ? "deleted" : "active";
}
