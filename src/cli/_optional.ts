// The packages a command needs that the command line does not bring (`@syncfile/server`): loaded
// when the command runs, and named, with the command that installs them, when they are missing.

import { isMissingPackage } from "syncfile/internal/bytes/ioError.js";
import { UsageError } from "./UsageError.js";

/** `load()`'s module, or a UsageError saying that `command` needs `name` and how to install it. */
export async function loadOptional<T>(command: string, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissingPackage(error, [name])) {
      throw new UsageError(
        `syncfile ${command} needs ${name}, which is not installed: run npm install ${name} (beside @syncfile/cli: npm install --global ${name} if the command line is installed globally)`,
      );
    }
    throw error;
  }
}

/** The server's modules `syncfile serve` uses. */
export const serverPackage = () =>
  loadOptional("serve", "@syncfile/server", async () => {
    const [keys, server, options, database, seed, storage] = await Promise.all([
      import("@syncfile/server/internal/server/ApiKeys.js"),
      import("@syncfile/server/internal/server/createServer.js"),
      import("@syncfile/server/internal/server/options.js"),
      import("@syncfile/server/internal/server/repositories/Database.js"),
      import("@syncfile/server/internal/server/seed.js"),
      import("@syncfile/server/internal/server/storage/location.js"),
    ]);
    return { ...keys, ...server, ...options, ...database, ...seed, ...storage };
  });
