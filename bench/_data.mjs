// Benchmark data: generated once into bench/.data/ (ignored by git), regenerated when the
// generator's parameters change.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { shapeNamed } from "./_shapes.mjs";

export const DATA_DIR = fileURLToPath(new URL("./.data/", import.meta.url));
const GENERATOR_VERSION = 1;

/** The path of a generated JSON data file of about `megabytes` MB, with its counts. */
export function jsonData(megabytes) {
  return shapeData(shapeNamed("json-pretty"), megabytes);
}

/**
 * The same users as jsonData's another day: other statuses and license holders (another seed),
 * for a diff.
 */
export function jsonNextData(megabytes) {
  return data(`users-${megabytes}mb-next.json`, megabytes, ["json-next"]);
}

/**
 * A generated data file of about `megabytes` MB in `shape` (one of _shapes.mjs), with its counts;
 * the shapes of today's files are those files.
 */
export function shapeData(shape, megabytes) {
  const { name, suffix, format } = shapeNamed(shape.name);
  return data(`users-${megabytes}mb${suffix}.${format}`, megabytes, [name]);
}

/**
 * A generated Excel workbook of about `megabytes` MB (`path`), and the same rows as CSV
 * (`csvPath`), with their counts.
 */
export async function xlsxData(megabytes) {
  const csvPath = `${DATA_DIR}users-${megabytes}mb-xlsx.csv`;
  const found = await data(`users-${megabytes}mb.xlsx`, megabytes, ["xlsx", csvPath]);
  return { ...found, csvPath };
}

/**
 * A generated export of about `megabytes` MB in a built-in profile's layout (Microsoft 365's
 * active users, `path`), and the same users in the service's layout (`canonicalPath`).
 */
export async function exportData(megabytes) {
  const canonicalPath = `${DATA_DIR}users-${megabytes}mb-export-canonical.csv`;
  const found = await data(`users-${megabytes}mb-export-m365.csv`, megabytes, ["export", canonicalPath]);
  return { ...found, canonicalPath };
}

const CHILD = fileURLToPath(new URL("./_generateChild.mjs", import.meta.url));

async function data(name, megabytes, [kind, ...extra]) {
  mkdirSync(DATA_DIR, { recursive: true });
  const path = `${DATA_DIR}${name}`;
  const metaPath = `${path}.meta`;
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.version === GENERATOR_VERSION) return { path, ...meta };
  }
  process.stderr.write(`generating ${path} …\n`);
  const counts = JSON.parse(
    execFileSync(process.execPath, [CHILD, kind, path, String(megabytes * 1e6), ...extra], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 1 << 20,
    }),
  );
  const meta = { version: GENERATOR_VERSION, ...counts };
  writeFileSync(metaPath, JSON.stringify(meta));
  return { path, ...meta };
}
