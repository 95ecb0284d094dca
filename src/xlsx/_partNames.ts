// Names of parts inside a workbook's ZIP: where a part's relationships are, and which part a
// relationship's target names. They are "/"-separated paths on every platform, resolved by the
// rules of Node's path.posix, which a browser build does not have.

/** The relationships part of `part` ("" for the package's own): xl/workbook.xml → xl/_rels/workbook.xml.rels. */
export function relationshipsPart(part: string): string {
  const { folder, name } = split(part);
  return joinPart(folder, "_rels", `${name}.rels`);
}

/** The part a relationship of `part` targets: from the part's folder, or from the root for "/…". */
export function targetPart(part: string, target: string): string {
  return target.startsWith("/") ? target.slice(1) : joinPart(split(part).folder, target);
}

/** `part`'s folder ("" at the root) and its own name, as path.posix's dirname and basename. */
function split(part: string): { folder: string; name: string } {
  const trimmed = part.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  return { folder: slash < 0 ? "" : trimmed.slice(0, slash), name: trimmed.slice(slash + 1) };
}

/** The paths joined as path.posix.join joins them: no empty or "." segments, ".." undoing the one before. */
function joinPart(...paths: string[]): string {
  const joined = paths.filter((p) => p !== "").join("/");
  const segments: string[] = [];
  for (const segment of joined.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === ".." && segments.length > 0 && segments[segments.length - 1] !== "..") segments.pop();
    else segments.push(segment);
  }
  const path = segments.length === 0 ? "." : segments.join("/");
  return joined.endsWith("/") ? `${path}/` : path;
}
