// Finds a property or element inside the text of one JSON value, by path. Only used when a
// finding needs a location, so it favours simplicity over speed. The text is valid JSON.

/** Index in `text` of the value at `path` (or of its key, with `at: "key"`), or -1. Duplicate keys: the last wins, as in JSON.parse. */
export function findInJson(
  text: string,
  path: readonly (string | number)[],
  at: "key" | "value" = "value",
): number {
  let pos = skipSpace(text, 0);
  let keyPos = -1;
  for (const segment of path) {
    const open = text.charCodeAt(pos);
    let found = -1;
    if (open === 0x7b && typeof segment === "string") {
      for (const member of members(text, pos)) {
        if (member.key === segment) {
          found = member.value;
          keyPos = member.keyStart;
        }
      }
    } else if (open === 0x5b && typeof segment === "number") {
      let k = 0;
      for (const element of elements(text, pos)) {
        if (k++ === segment) {
          found = element;
          break;
        }
      }
      keyPos = found;
    }
    if (found === -1) return -1;
    pos = found;
  }
  return at === "key" && path.length > 0 ? keyPos : pos;
}

/** The keys of the object at `pos`, in order, with where each key and value starts. */
export function* members(
  text: string,
  pos: number,
): Generator<{ key: string; keyStart: number; value: number }> {
  let i = skipSpace(text, pos + 1);
  if (text.charCodeAt(i) === 0x7d) return;
  for (;;) {
    const keyStart = i;
    const keyEnd = skipValue(text, i);
    const raw = text.slice(keyStart, keyEnd);
    const key = raw.includes("\\") ? (JSON.parse(raw) as string) : raw.slice(1, -1);
    i = skipSpace(text, skipSpace(text, keyEnd) + 1); // past ':'
    yield { key, keyStart, value: i };
    i = skipSpace(text, skipValue(text, i));
    if (text.charCodeAt(i) !== 0x2c) return;
    i = skipSpace(text, i + 1);
  }
}

/** Where each element of the array at `pos` starts. */
export function* elements(text: string, pos: number): Generator<number> {
  let i = skipSpace(text, pos + 1);
  if (text.charCodeAt(i) === 0x5d) return;
  for (;;) {
    yield i;
    i = skipSpace(text, skipValue(text, i));
    if (text.charCodeAt(i) !== 0x2c) return;
    i = skipSpace(text, i + 1);
  }
}

/** The index just past the value starting at `pos`. */
export function skipValue(text: string, pos: number): number {
  const c = text.charCodeAt(pos);
  if (c === 0x22) {
    let i = pos + 1;
    for (;;) {
      const d = text.charCodeAt(i);
      if (d === 0x5c) i += 2;
      else if (d === 0x22) return i + 1;
      else i++;
    }
  }
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let i = pos; i < text.length; i++) {
      const d = text.charCodeAt(i);
      if (d === 0x22) i = skipValue(text, i) - 1;
      else if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return i + 1;
    }
    return text.length;
  }
  let i = pos;
  while (i < text.length && !/[\s,\]}:]/.test(text[i] as string)) i++;
  return i;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}
