// The core runs in a browser. src/browser.ts is bundled for the browser with the sibling
// convention of the page's Vite build (X.ts gives way to X.browser.ts): the bundle must reach no
// Node module. Then it is run in a realm that has only what a Web Worker and Node both have (no
// Buffer, no process, no require), where it validates, converts and excerpts every JSON and CSV
// fixture exactly as the Node library does: the same reports, the same bytes written.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Context, createContext, runInContext } from "node:vm";
import { build, type Metafile, type Plugin } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConvertOptions,
  convertFile,
  type Report,
  readExcerpts,
  type ValidateOptions,
  validateText,
} from "../../src/index.js";
import { root } from "../support/paths.js";

/** A relative import of `X.js` (meaning X.ts) resolves to X.browser.ts when there is one. */
const browserSiblings: Plugin = {
  name: "browser-siblings",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts"));
      const sibling = path.replace(/\.ts$/, ".browser.ts");
      return path.endsWith(".ts") && existsSync(sibling) ? { path: sibling } : undefined;
    });
  },
};

/**
 * The one reference to a Node module a browser build may keep: stream-chain (under stream-json's
 * verifier, which diagnoses JSON syntax) imports node:string_decoder dynamically, only when it
 * finds itself running in Node.
 */
const GUARDED = [
  {
    from: "node_modules/stream-chain/src/utils/fixUtf8Stream.js",
    path: "node:string_decoder",
    kind: "dynamic-import",
  },
];

const isBuiltin = (path: string) => path.startsWith("node:") || builtinModules.includes(path);

/** What the bundle's code may use besides the language itself: what a Web Worker and Node both have. */
const WORKER_GLOBALS = { TextEncoder, TextDecoder, performance, console };

/** What the bundle does in its realm: every value in and out is JSON or an array of numbers. */
interface Driver {
  validate(bytes: Uint8Array, options: ValidateOptions, chunk: number): string;
  convert(bytes: Uint8Array, options: ConvertOptions, chunk: number): { report: string; output: number[] };
  excerpts(bytes: Uint8Array, report: string): string;
}

const DRIVER = `(() => {
  const { Validation, Conversion, excerptFrom, excerptWindow } = syncfile;
  // every chunk, stopped or not: the bytes counted are those pushed, as Node pushes the whole file
  const pushAll = (pass, bytes, chunk) => {
    for (let at = 0; at < bytes.length; at += chunk) {
      pass.push(Uint8Array.from(bytes.subarray(at, at + chunk)));
    }
  };
  return {
    validate(bytes, options, chunk) {
      const validation = new Validation(options);
      pushAll(validation, bytes, chunk);
      return JSON.stringify(validation.end());
    },
    convert(bytes, options, chunk) {
      const output = [];
      const conversion = new Conversion(options, { bytes: (b) => { for (const x of b) output.push(x); } });
      pushAll(conversion, bytes, chunk);
      return { report: JSON.stringify(conversion.end()), output };
    },
    excerpts(bytes, report) {
      const excerpts = [];
      for (const f of JSON.parse(report).findings) {
        if (excerpts.length >= 10) break;
        if (f.offset === undefined || f.line === undefined || f.code === "file.type") continue;
        const { start, end } = excerptWindow(f.offset);
        const excerpt = excerptFrom(Uint8Array.from(bytes.subarray(start, end)), start, f.offset, f.line);
        if (excerpt) excerpts.push(excerpt);
      }
      return JSON.stringify(excerpts);
    },
  };
})()`;

let bundle: { text: string; metafile: Metafile };
let realm: Context;
let driver: Driver;

beforeAll(async () => {
  const result = await build({
    entryPoints: [join(root, "src/browser.ts")],
    absWorkingDir: root,
    bundle: true,
    platform: "browser",
    format: "iife",
    globalName: "syncfile",
    write: false,
    metafile: true,
    logLevel: "silent",
    plugins: [browserSiblings],
  });
  bundle = { text: (result.outputFiles[0] as { text: string }).text, metafile: result.metafile };
  realm = createContext({ ...WORKER_GLOBALS });
  runInContext(bundle.text, realm);
  driver = runInContext(DRIVER, realm) as Driver;
}, 60_000);

describe("the browser bundle of src/browser.ts", () => {
  it("takes every X.browser.ts there is, and no Node module", () => {
    const inputs = Object.keys(bundle.metafile.inputs);
    expect(inputs.filter(isBuiltin)).toEqual([]);
    const builtins = Object.entries(bundle.metafile.inputs).flatMap(([from, input]) =>
      input.imports.filter((i) => isBuiltin(i.path)).map((i) => ({ from, path: i.path, kind: i.kind })),
    );
    expect(builtins).toEqual(GUARDED);
    expect(bundle.text).not.toMatch(/require\("node:|from "node:/);
    // each seam in its browser form, and never its Node form
    const seams = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".browser.ts"))
      .map((file) => `src/${file}`);
    expect(seams.length).toBeGreaterThan(0);
    for (const seam of seams) {
      expect(inputs).toContain(seam);
      expect(inputs).not.toContain(seam.replace(/\.browser\.ts$/, ".ts"));
    }
  });
});

describe("the browser bundle, run where there is no Buffer, process or require", () => {
  const folders = ["valid", "invalid"];
  const fixtures = folders.flatMap((folder) =>
    readdirSync(join(root, "fixtures", folder))
      .filter((name) => /\.(json|csv)$/.test(name))
      .map((name) => join(root, "fixtures", folder, name)),
  );
  let out: string;
  let n = 0; // output files made in `out`
  beforeAll(() => {
    out = mkdtempSync(join(tmpdir(), "syncfile-browser-test-"));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("is run in a realm without Node's globals", () => {
    expect(runInContext("[typeof Buffer, typeof process, typeof require, typeof global]", realm)).toEqual(
      Array(4).fill("undefined"),
    );
  });

  /** A report as JSON has it, its duration (which differs from run to run) zeroed. */
  const comparable = (report: Report | string): Report => {
    const copy = JSON.parse(typeof report === "string" ? report : JSON.stringify(report)) as Report;
    copy.stats.durationMs = 0;
    return copy;
  };

  it("validates every JSON and CSV fixture as the Node library does, in small chunks or whole", () => {
    expect(fixtures.length).toBeGreaterThan(50);
    for (const path of fixtures) {
      const bytes = readFileSync(path);
      const expected = comparable(validateText(bytes, { file: path }));
      for (const chunk of [7, bytes.length + 1]) {
        expect(comparable(driver.validate(bytes, { file: path }, chunk)), `${path} in ${chunk}`).toEqual(
          expected,
        );
      }
    }
  });

  it("makes the excerpts readExcerpts reads from the file", () => {
    for (const path of fixtures) {
      const bytes = readFileSync(path);
      const report = validateText(bytes, { file: path });
      const expected = [...readExcerpts(path, report.findings).values()];
      expect(JSON.parse(driver.excerpts(bytes, JSON.stringify(report))), path).toEqual(expected);
    }
  });

  it("converts every JSON and CSV fixture into the bytes convertFile writes, with the same report", async () => {
    const cases: ConvertOptions[] = [
      { to: "json", force: true },
      { to: "csv", force: true },
      { to: "csv", normalize: true, displayCurrency: "EUR", rates: { EUR: "0.9215" }, escapeFormulas: false },
    ];
    for (const path of fixtures) {
      const bytes = readFileSync(path);
      for (const options of cases) {
        const file = join(out, `${n++}.${options.to}`);
        const expected = comparable(await convertFile(path, file, options));
        const converted = driver.convert(bytes, { file: path, ...options }, 7);
        const report = comparable(converted.report);
        expect(report.output?.file).toBeNull();
        if (expected.output) expected.output.file = null;
        expect(report, `${path} ${JSON.stringify(options)}`).toEqual(expected);
        // what is not to be kept, convertFile never moves to its name
        if (expected.output?.written) {
          expect(Buffer.from(converted.output).equals(readFileSync(file)), `${path} → ${file}`).toBe(true);
        }
      }
    }
  });

  it("writes workbooks that read back as the ones convertFile writes (the ZIP's dates may differ)", async () => {
    for (const path of fixtures.filter((p) => p.includes("/valid/"))) {
      const xlsx = join(out, `${n++}.xlsx`);
      await convertFile(path, xlsx, { to: "xlsx" });
      const converted = driver.convert(readFileSync(path), { file: path, to: "xlsx" }, 4096);
      const fromBrowser = join(out, `${n++}.xlsx`);
      writeFileSync(fromBrowser, Uint8Array.from(converted.output));
      const [expected, actual] = [join(out, `${n++}.json`), join(out, `${n++}.json`)];
      await convertFile(xlsx, expected, { to: "json" });
      await convertFile(fromBrowser, actual, { to: "json" });
      expect(readFileSync(actual).equals(readFileSync(expected)), path).toBe(true);
    }
  });
});
