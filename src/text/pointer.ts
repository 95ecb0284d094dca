// JSON pointers (RFC 6901).

/** RFC 6901 escaping of one pointer segment. */
export function escapePointer(segment: string): string {
  return segment.includes("~") || segment.includes("/")
    ? segment.replace(/~/g, "~0").replace(/\//g, "~1")
    : segment;
}

/** The segments of a JSON Pointer, unescaped: `/a~1b/0` → ["a/b", "0"]. */
export function pointerSegments(pointer: string): string[] {
  return pointer === ""
    ? []
    : pointer
        .split("/")
        .slice(1)
        .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
}
