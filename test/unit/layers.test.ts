// The layers of src/ point one way, and a `_file` stays in its folder: each import of every
// module is read (TypeScript's own pre-processor: import, export … from, import()) and held
// against the order below. A new upward or sideways import fails here, naming the file; so does
// a circle of imports between files, in one folder or across several.

import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { WORKSPACES } from "../../scripts/packages.mjs";
import { root } from "../support/paths.js";

/**
 * Bottom to top; a folder imports only from itself or from layers below. Folders that share a
 * layer do not import each other.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["bytes"], // byte input and output: files, chunks, where a writer's bytes go
  ["text", "spill"], // strings (UTF-8, pointers, suggestions); memory bounded by spilling to disk
  ["schema"], // the data file's shape: its JSON Schemas, compiled, and the CSV layout's columns
  ["report"], // findings, their catalog and the report's formats
  ["model"], // records and what is derived from them
  ["mapping"], // how an export's columns make the data file: mapping documents, built-in profiles
  ["json", "csv"],
  ["xlsx"],
  ["checks"],
  ["pass"], // the engine every pass runs on: validation, conversion, the server's sync
  ["validate"],
  ["convert"],
  ["diff"], // what a sync of one file would change in an account holding another
  ["http"],
  ["server", "client"],
  ["sources"], // where a job's data is: a file, a command, an HTTP API… (yields bytes or records)
  ["jobs"], // a job file and its runs: source → mapped pass → diff → guard → push → record → notify
  ["cli"],
  ["."], // src/index.ts and the other entry points: re-exports of everything
  ["web"], // the page syncfile serve shows: on the browser entry (src/browser.ts)
];

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
  if (lb === la) return `${a}/ and ${b}/ are side by side`;
  return null;
}

/**
 * The circles of imports among `edges` (files of src/): each set of files that reach one another
 * through their imports (a strongly connected component, Tarjan's), sorted.
 */
function circles(edges: readonly { from: string; to: string }[]): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) next.set(from, [...(next.get(from) ?? []), to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file) as number);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number));
      } else if (stack.includes(to)) {
        low.set(file, Math.min(low.get(file) as number, index.get(to) as number));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || next.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of [...next.keys()].sort()) if (!index.has(file)) visit(file);
  return found.sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
}

describe("layers", () => {
  it("are kept by every import in src/", () => {
    const breaches = imports()
      .map(({ from, to }) => ({ from, to, why: breach(from, to) }))
      .filter((i) => i.why !== null)
      .map((i) => `${i.from} → ${i.to}: ${i.why}`);
    expect(breaches).toEqual([]);
  });

  it("give every folder of src/ one layer", () => {
    const modules = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    const folders = [...new Set(modules.map(folder))];
    expect(folders.filter((name) => layer(name) < 0)).toEqual([]);
    const named = LAYERS.flat();
    expect(named.filter((name, i) => named.indexOf(name) !== i)).toEqual([]);
  });

  it("leave no circle of imports among the files of src/", () => {
    const found = circles(imports()).map((files) => `${files.join(", ")} import one another`);
    expect(found).toEqual([]);
  });

  it("are read right: upward, sideways and private imports are caught", () => {
    expect(breach("csv/CsvAssembler.ts", "checks/Check.ts")).toBe("csv/ is below checks/");
    expect(breach("bytes/ChunkedOut.ts", "model/DocumentWriter.ts")).toBe("bytes/ is below model/");
    expect(breach("report/catalog.ts", "model/csvColumns.ts")).toBe("report/ is below model/");
    expect(breach("text/utf8.ts", "spill/spill.ts")).toBe("text/ and spill/ are side by side");
    expect(breach("pass/runPass.ts", "validate/validate.ts")).toBe("pass/ is below validate/");
    expect(breach("csv/CsvReader.ts", "json/JsonReader.ts")).toBe("csv/ and json/ are side by side");
    expect(breach("checks/x.ts", "report/_describe.ts")).toBe("report/_describe.ts is private to report/");
    expect(breach("client/x.ts", "server/y.ts")).toBe("client/ and server/ are side by side");
    expect(breach("cli/main.ts", "validate/validate.ts")).toBeNull();
    expect(breach("model/DataRecord.ts", "report/Finding.ts")).toBeNull();
    expect(breach("validate/_a.ts", "validate/_b.ts")).toBeNull();
    expect(breach("index.ts", "validate/validate.ts")).toBeNull();
    expect(breach("server/SyncRunner.ts", "pass/runPass.ts")).toBeNull();
  });

  it("are read right: a circle is caught, in one folder or across several", () => {
    const edges = [
      { from: "csv/CsvReader.ts", to: "csv/CsvRows.ts" },
      { from: "csv/CsvRows.ts", to: "csv/CsvReader.ts" },
      { from: "csv/CsvRows.ts", to: "csv/columns.ts" },
      { from: "a/x.ts", to: "b/y.ts" },
      { from: "b/y.ts", to: "c/z.ts" },
      { from: "c/z.ts", to: "a/x.ts" },
      { from: "a/x.ts", to: "c/z.ts" },
    ];
    expect(circles(edges)).toEqual([
      ["a/x.ts", "b/y.ts", "c/z.ts"],
      ["csv/CsvReader.ts", "csv/CsvRows.ts"],
    ]);
    expect(circles([...edges, { from: "d/w.ts", to: "d/w.ts" }])).toContainEqual(["d/w.ts"]);
    const oneWay = edges.filter(({ from, to }) => from !== "csv/CsvRows.ts" && to !== "a/x.ts");
    expect(circles(oneWay)).toEqual([]);
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

  /**
   * The imports from elsewhere in src/server of a module of `folder` other than its interfaces
   * (types.ts); the package's entry points (index.ts, internal.ts: re-exports) aside.
   */
  const entries = ["server/index.ts", "server/internal.ts"];
  const implementationsNamed = (folder: string) =>
    imports()
      .filter(({ from }) => from.startsWith("server/") && !from.startsWith(`server/${folder}/`))
      .filter(({ from }) => !entries.includes(from))
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

/** The packages (npm workspaces): the folders of src/ each one builds, and where its package.json is. */
const PACKAGES = WORKSPACES;

const packageOf = (file: string): string =>
  Object.entries(PACKAGES).find(([, p]) => p.folders.includes(folder(file)))?.[0] ?? "(none)";

/** The package a bare import names: `@scope/name` or `name` without its subpath; null for a builtin. */
function packageNamed(specifier: string): string | null {
  if (specifier.startsWith("node:") || builtinModules.includes(specifier)) return null;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/** Why an import of `from` (a file of src/) breaks its package's bounds, or null. */
function outOfBounds(
  from: string,
  specifier: string,
  declared: (pkg: string) => readonly string[],
): string | null {
  const mine = packageOf(from);
  if (specifier.startsWith(".")) {
    const to = relative(src, resolve(src, dirname(from), specifier));
    if (to.startsWith("..")) return null;
    const theirs = packageOf(to);
    return theirs === mine ? null : `${to} is ${theirs}'s: import it as ${theirs}/internal/${to}`;
  }
  const name = packageNamed(specifier);
  if (name === null || name === mine) return null;
  if (!declared(mine).includes(name)) return `${mine} does not depend on ${name}`;
  // another package's module, by the name its internal entries give it: src/X.ts is NAME/internal/X.js
  const internal = specifier.match(/^(?:@[^/]+\/)?[^/]+\/internal\/(.+)$/)?.[1];
  if (internal !== undefined && packageOf(internal) !== name) return `${internal} is not ${name}'s`;
  return null;
}

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const manifestOf = (pkg: string): Manifest =>
  JSON.parse(readFileSync(join(root, (PACKAGES[pkg] as { dir: string }).dir, "package.json"), "utf8"));

describe("the packages", () => {
  const declared = (pkg: string) => {
    const m = manifestOf(pkg);
    return Object.keys({ ...m.dependencies, ...m.peerDependencies });
  };

  it("import only what their package.json declares, and one another by name", () => {
    const found: string[] = [];
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts") && !file.endsWith(".tsx")) continue;
      const text = readFileSync(join(src, file), "utf8");
      for (const { fileName } of ts.preProcessFile(text, true, true).importedFiles) {
        const why = outOfBounds(file, fileName, declared);
        if (why !== null) found.push(`${file} imports ${fileName}: ${why}`);
      }
    }
    expect(found).toEqual([]);
  });

  it("load an optional peer (a driver, the server) when it is used, never as the module loads", () => {
    const modules = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));
    const parsed = new Map(
      modules.map((f) => [
        f,
        ts.createSourceFile(f, readFileSync(join(src, f), "utf8"), ts.ScriptTarget.Latest),
      ]),
    );
    const staticallyImported = new Set<string>();
    for (const [file, module] of parsed) {
      for (const s of module.statements) {
        if (!(ts.isImportDeclaration(s) || ts.isExportDeclaration(s)) || !s.moduleSpecifier) continue;
        const specifier = (s.moduleSpecifier as ts.StringLiteral).text;
        if (specifier.startsWith(".")) {
          staticallyImported.add(
            relative(src, resolve(src, dirname(file), specifier)).replace(/\.js$/, ".ts"),
          );
        }
      }
    }
    const found: string[] = [];
    for (const [file, module] of parsed) {
      const m = manifestOf(packageOf(file)) as Manifest & {
        peerDependenciesMeta?: Record<string, { optional?: boolean }>;
      };
      const optional = Object.keys(m.peerDependenciesMeta ?? {});
      for (const statement of module.statements) {
        if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
        const name = packageNamed(statement.moduleSpecifier.text);
        if (name === null || !optional.includes(name) || statement.importClause?.isTypeOnly) continue;
        const bindings = statement.importClause?.namedBindings;
        const typesOnly =
          statement.importClause?.name === undefined &&
          bindings !== undefined &&
          ts.isNamedImports(bindings) &&
          bindings.elements.every((e) => e.isTypeOnly);
        // a module only import() reaches (no entry point, nothing imports it as it loads) may
        // import its driver: sources/sql.ts and the like
        const loadedOnUse = !staticallyImported.has(file) && !/(^|\/)(index|internal|main)\.ts$/.test(file);
        if (!typesOnly && !loadedOnUse) found.push(`${file} imports ${name} as it loads`);
      }
    }
    expect(found).toEqual([]);
  });

  it("are the workspaces, each named as here and depending on the others by their version", () => {
    const workspace = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      workspaces: string[];
    };
    expect(workspace.workspaces).toEqual([".", "packages/*"]);
    const version = manifestOf("syncfile").version;
    for (const pkg of Object.keys(PACKAGES)) {
      const m = manifestOf(pkg);
      expect(m.name).toBe(pkg);
      expect(m.version, pkg).toBe(version);
      for (const [name, range] of Object.entries({ ...m.dependencies, ...m.peerDependencies })) {
        if (name in PACKAGES) expect(range, `${pkg} → ${name}`).toBe(version);
      }
    }
  });

  it("are read right: a reach into another package, an undeclared one and a builtin", () => {
    const declares = (pkg: string) => (pkg === "@syncfile/server" ? ["syncfile", "fastify"] : ["syncfile"]);
    expect(outOfBounds("server/createServer.ts", "../validate/validate.js", declares)).toBe(
      "validate/validate.js is syncfile's: import it as syncfile/internal/validate/validate.js",
    );
    expect(
      outOfBounds("server/createServer.ts", "syncfile/internal/validate/validate.js", declares),
    ).toBeNull();
    expect(outOfBounds("server/createServer.ts", "syncfile/internal/client/pushFile.js", declares)).toBe(
      "client/pushFile.js is not syncfile's",
    );
    expect(outOfBounds("server/createServer.ts", "fastify", declares)).toBeNull();
    expect(outOfBounds("server/createServer.ts", "@fastify/cors", declares)).toBe(
      "@syncfile/server does not depend on @fastify/cors",
    );
    expect(outOfBounds("validate/validate.ts", "pino", declares)).toBe("syncfile does not depend on pino");
    expect(outOfBounds("validate/validate.ts", "node:fs", declares)).toBeNull();
    expect(outOfBounds("bytes/buffer.browser.ts", "buffer/", declares)).toBe(
      "syncfile does not depend on buffer",
    );
    expect(outOfBounds("jobs/runJob.ts", "../sources/fetchSource.js", declares)).toBeNull();
  });
});
