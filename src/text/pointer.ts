// JSON pointers (RFC 6901).

/** RFC 6901 escaping of one pointer segment. */
export function escapePointer(segment: string): string {
  return segment.includes("~") || segment.includes("/")
    ? segment.replace(/~/g, "~0").replace(/\//g, "~1")
    : segment;
}
