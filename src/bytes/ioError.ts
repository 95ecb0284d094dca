// A file system's error in words, for any message about a file: "no such file or directory"
// rather than ENOENT. And a module that could not be loaded because its package is not installed.

/** "no such file or directory" for ENOENT, and so on; the message itself otherwise. */
export function describeIoError(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  switch (e?.code) {
    case "ENOENT":
      return "no such file or directory";
    case "EISDIR":
      return "it is a directory, not a file";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "ENOSPC":
      return "no space left on device";
    case "EDQUOT":
      return "disk quota exceeded";
    case "EFBIG":
      return "file too large (for the file system, or the limit of ulimit -f)";
    case "EROFS":
      return "read-only file system";
    default:
      return e instanceof Error ? e.message : String(error);
  }
}

/**
 * True when `error` is an import() that failed because one of `packages` is not installed (Node
 * names the package: "Cannot find package 'pg' imported from …"): an optional peer, to be named
 * to the user with the command that installs it.
 */
export function isMissingPackage(error: unknown, packages: readonly string[]): boolean {
  const e = error as NodeJS.ErrnoException;
  return e?.code === "ERR_MODULE_NOT_FOUND" && packages.some((name) => e.message.includes(`'${name}'`));
}
