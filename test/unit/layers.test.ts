// The layers of src/ point one way, and a `_file` stays in its folder: each import of every
// module is read (TypeScript's own pre-processor: import, export … from, import()) and held
// against the order below. A new upward or sideways import fails here, naming the file.

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { root } from "../support/paths.js";

/** Bottom to top; a folder imports only from its own layer's bottom or from layers below. */
const LAYERS: readonly (readonly string[])[] = [
  ["bytes", "text", "spill", "model", "report", "schema"],
  ["json", "csv"],
  ["xlsx"],
  ["checks"],
  ["pass"], // the engine every pass runs on: validation, conversion, the server's sync
  ["validate"],
  ["convert"],
  ["http"],
  ["server", "client"],
  ["cli"],
  ["."], // src/index.ts and the other entry points: re-exports of everything
  ["web"], // the page syncfile serve shows: on the browser entry (src/browser.ts)
];
/** The bottom layer's folders may use one another: they are the vocabulary of the rest. */
const SHARED = new Set(LAYERS[0]);

const src = join(root, "src");

/** Every import of every module under `src/`, as folder and file relative to `src/`. */
function imports(): { from: string; to: string }[] {
  const found: { from: string; to: string }[] = [];
  for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".ts") || file.endsWith(".test.ts")) continue;
    const text = readFileSync(join(src, file), "utf8");
    for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith(".")) continue;
      const to = relative(src, resolve(src, dirname(file), fileName));
      if (to.startsWith("..")) continue; // package.json, schemas/: data, not modules
      found.push({
        from: file,
        to: relative(src, resolve(src, dirname(file), fileName)).replace(/\.js$/, ".ts"),
      });
    }
  }
  return found;
}

const folder = (file: string) => (file.includes("/") ? (file.split("/")[0] as string) : ".");
const layer = (name: string) => LAYERS.findIndex((l) => l.includes(name));

/** Why an import breaks the layers, or null. */
function breach(from: string, to: string): string | null {
  const [a, b] = [folder(from), folder(to)];
  if (a === b) return null;
  if ((to.split("/").pop() as string).startsWith("_")) return `${to} is private to ${b}/`;
  const [la, lb] = [layer(a), layer(b)];
  if (la < 0 || lb < 0) return `${la < 0 ? a : b}/ is in no layer: add it to LAYERS`;
  if (lb > la) return `${a}/ is below ${b}/`;
  if (lb === la && !SHARED.has(a)) return `${a}/ and ${b}/ are side by side`;
  return null;
}

describe("layers", () => {
  it("are kept by every import in src/", () => {
    const breaches = imports()
      .map(({ from, to }) => ({ from, to, why: breach(from, to) }))
      .filter((i) => i.why !== null)
      .map((i) => `${i.from} → ${i.to}: ${i.why}`);
    expect(breaches).toEqual([]);
  });

  it("are read right: upward, sideways and private imports are caught", () => {
    expect(breach("csv/CsvAssembler.ts", "checks/Check.ts")).toBe("csv/ is below checks/");
    expect(breach("csv/CsvReader.ts", "json/JsonReader.ts")).toBe("csv/ and json/ are side by side");
    expect(breach("checks/x.ts", "report/_describe.ts")).toBe("report/_describe.ts is private to report/");
    expect(breach("client/x.ts", "server/y.ts")).toBe("client/ and server/ are side by side");
    expect(breach("cli/main.ts", "validate/validate.ts")).toBeNull();
    expect(breach("model/DataRecord.ts", "report/Finding.ts")).toBeNull();
    expect(breach("validate/_a.ts", "validate/_b.ts")).toBeNull();
    expect(breach("index.ts", "validate/validate.ts")).toBeNull();
  });
});

describe("the server's storage", () => {
  const server = join(src, "server");
  const modules = readdirSync(server, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
  const outside = modules.filter((f) => !f.startsWith("repositories/"));

  it("has its SQL in src/server/repositories/ only", () => {
    const sql = /\b(SELECT\s|INSERT INTO|DELETE FROM|CREATE (TABLE|INDEX)|UPDATE \w+ SET)/;
    expect(outside.filter((f) => sql.test(readFileSync(join(server, f), "utf8")))).toEqual([]);
  });

  /** The imports from elsewhere in src/server of a module of `folder` other than its interfaces (types.ts). */
  const implementationsNamed = (folder: string) =>
    imports()
      .filter(({ from }) => from.startsWith("server/") && !from.startsWith(`server/${folder}/`))
      .filter(({ to }) => to.startsWith(`server/${folder}/`) && to !== `server/${folder}/types.ts`)
      .map(({ from, to }) => `${from} → ${to}`)
      .sort();

  it("is seen through the repositories' interfaces: only createServer names the backend", () => {
    expect(implementationsNamed("repositories")).toEqual([
      "server/createServer.ts → server/repositories/embedded.ts",
      "server/createServer.ts → server/repositories/postgres.ts",
      "server/createServer.ts → server/repositories/redis.ts",
    ]);
  });

  it("keeps the files' bytes behind the object store's interface: only createServer names it, and the disk store's own routes", () => {
    expect(implementationsNamed("storage")).toEqual([
      "server/createServer.ts → server/storage/disk.ts",
      "server/createServer.ts → server/storage/s3.ts",
      "server/routes/storage.ts → server/storage/disk.ts",
    ]);
  });
});
