// A file system's error in words, for any message about a file: "no such file or directory"
// rather than ENOENT.

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
