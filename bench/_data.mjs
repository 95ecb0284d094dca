// Benchmark data: generated once into bench/.data/ (ignored by git), regenerated when the
// generator's parameters change.

import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { generateCsv, generateJson, generateXlsx } from "./generate.mjs";

export const DATA_DIR = fileURLToPath(new URL("./.data/", import.meta.url));
const GENERATOR_VERSION = 1;

/** The path of a generated JSON data file of about `megabytes` MB, with its counts. */
export function jsonData(megabytes) {
  return data(`users-${megabytes}mb.json`, megabytes, generateJson);
}

/** The path of a generated CSV data file (an HR export's layout) of about `megabytes` MB, with its counts. */
export function csvData(megabytes) {
  return data(`users-${megabytes}mb.csv`, megabytes, generateCsv);
}

/**
 * A generated Excel workbook of about `megabytes` MB (`path`), and the same rows as CSV
 * (`csvPath`), with their counts.
 */
export async function xlsxData(megabytes) {
  const csvPath = `${DATA_DIR}users-${megabytes}mb-xlsx.csv`;
  const found = await data(`users-${megabytes}mb.xlsx`, megabytes, (path, bytes) =>
    generateXlsx(path, csvPath, bytes),
  );
  return { ...found, csvPath };
}

async function data(name, megabytes, generate) {
  mkdirSync(DATA_DIR, { recursive: true });
  const path = `${DATA_DIR}${name}`;
  const metaPath = `${path}.meta`;
  if (existsSync(path) && existsSync(metaPath)) {
    const meta = JSON.parse(readFileSync(metaPath, "utf8"));
    if (meta.version === GENERATOR_VERSION) return { path, ...meta };
  }
  process.stderr.write(`generating ${path} …\n`);
  const counts = await generate(path, megabytes * 1e6);
  const meta = { version: GENERATOR_VERSION, ...counts };
  writeFileSync(metaPath, JSON.stringify(meta));
  return { path, ...meta };
}
