// The drivers only some sources need (pg, mysql2, ldapts, the S3 client) are optional peer
// dependencies of @syncfile/jobs: loaded when a source of their kind is read, and named, with
// the command that installs them, when they are missing.

import { isMissingPackage } from "syncfile/internal/bytes/ioError.js";
import { SourceError } from "./SourceError.js";

/** `load()`'s module, or a SourceError saying that a `kind` source needs `packages`. */
export async function loadDriver<T>(
  kind: string,
  packages: readonly string[],
  load: () => Promise<T>,
): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, packages)) {
      throw new SourceError(
        `a ${kind} source needs ${packages.join(" and ")}, not installed beside @syncfile/jobs: run npm install ${packages.join(" ")}`,
      );
    }
    throw error;
  }
}
