// The core runs in a browser. src/browser.ts is bundled for the browser with the sibling
// convention of the page's Vite build (X.ts gives way to X.browser.ts): the bundle must reach no
// Node module. Then it is run in a realm that has only what a Web Worker and Node both have (no
// Buffer, no process, no require), where it validates, converts and excerpts every JSON and CSV
// fixture, and validates and converts every workbook from a Blob, exactly as the Node library
// does: the same reports, the same bytes written.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { type Context, createContext, runInContext } from "node:vm";
import { build, type Metafile, type Plugin } from "esbuild";
import { unzipSync, zipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ConvertOptions,
  convertFile,
  pipeDocument,
  type Report,
  readExcerpts,
  type ValidateOptions,
  validateFile,
  validateText,
  XlsxWriter,
} from "../../src/index.js";
import { browserSibling, isBuiltin } from "../../vite.config.js";
import { root } from "../support/paths.js";
import { centralDirectoryOffset, zip64Archive } from "../support/zipArchives.js";

/** A relative import of `X.js` (meaning X.ts) resolves to X.browser.ts when there is one. */
const browserSiblings: Plugin = {
  name: "browser-siblings",
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const sibling = browserSibling(resolve(args.resolveDir, args.path.replace(/\.js$/, ".ts")));
      return sibling ? { path: sibling } : undefined;
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

/**
 * A report as JSON has it, its duration (which differs from run to run) zeroed, and the reason a
 * damaged workbook cannot be read left out: each ZIP reader (yauzl in Node, the browser's own)
 * says it in its own words. Whether the ZIP's structure is damaged or a part of it stays.
 */
const comparable = (report: Report | string): Report => {
  const copy = JSON.parse(typeof report === "string" ? report : JSON.stringify(report)) as Report;
  copy.stats.durationMs = 0;
  for (const finding of copy.findings) {
    if (finding.code !== "xlsx.corrupt") continue;
    finding.message = finding.message.replace(/(: its ZIP structure is damaged \(|: ).*$/s, "$1…");
  }
  return copy;
};

/**
 * What the bundle's code may use besides the language itself: what a Web Worker and Node both
 * have (crypto: the fingerprints' key is drawn with crypto.getRandomValues).
 */
const WORKER_GLOBALS = { TextEncoder, TextDecoder, performance, console, Blob, crypto: globalThis.crypto };

/** What the bundle does in its realm: every value in and out is JSON or an array of numbers. */
interface Driver {
  validate(bytes: Uint8Array, options: ValidateOptions, chunk: number): string;
  convert(bytes: Uint8Array, options: ConvertOptions, chunk: number): { report: string; output: number[] };
  excerpts(bytes: Uint8Array, report: string): string;
  /** A workbook's bytes as a Blob, validated: the report, and each byte count onProgress was told. */
  validateWorkbook(
    bytes: Uint8Array,
    options: ValidateOptions,
  ): Promise<{ report: string; progress: number[] }>;
  convertWorkbook(bytes: Uint8Array, options: ConvertOptions): Promise<{ report: string; output: number[] }>;
}

const DRIVER = `(() => {
  const { Validation, Conversion, excerptFrom, excerptWindow, validateWorkbook, convertWorkbook } = syncfile;
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
    async validateWorkbook(bytes, options) {
      const progress = [];
      const onProgress = (b) => progress.push(b);
      const report = await validateWorkbook(new Blob([bytes]), { ...options, onProgress });
      return { report: JSON.stringify(report), progress };
    },
    async convertWorkbook(bytes, options) {
      const output = [];
      const out = { bytes: (b) => { for (const x of b) output.push(x); } };
      const report = await convertWorkbook(new Blob([bytes]), options, out);
      return { report: JSON.stringify(report), output };
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

/** Files the tests write, each a new name in one folder removed at the end: `scratch(".json")`. */
/** The conversions compared with convertFile's: to JSON, to CSV, and to CSV normalised in euros. */
const CONVERSIONS: ConvertOptions[] = [
  { to: "json", force: true },
  { to: "csv", force: true },
  { to: "csv", normalize: true, displayCurrency: "EUR", rates: { EUR: "0.9215" }, escapeFormulas: false },
];

let folder: string;
let made = 0;
const scratch = (extension: string) => join(folder, `${made++}${extension}`);
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), "syncfile-browser-test-"));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The browser's conversion has convertFile's report (into `file`), and its bytes when they are to be kept. */
function expectConvertedAlike(
  converted: { report: string; output: number[] },
  expected: Report,
  file: string,
) {
  const what = `${expected.file} → ${file} (${expected.output?.format})`;
  const report = comparable(converted.report);
  expect(report.output?.file, what).toBeNull();
  const wanted = comparable(expected);
  if (wanted.output) wanted.output.file = null;
  expect(report, what).toEqual(wanted);
  // what is not to be kept, convertFile never moves to its name
  if (expected.output?.written)
    expect(Buffer.from(converted.output).equals(readFileSync(file)), what).toBe(true);
}

/** The workbook the browser wrote reads back (as JSON) as the one convertFile writes from `path` (their ZIPs' dates may differ). */
async function expectWorkbookAlike(output: number[], path: string) {
  const [xlsx, fromBrowser, expected, actual] = [
    scratch(".xlsx"),
    scratch(".xlsx"),
    scratch(".json"),
    scratch(".json"),
  ];
  await convertFile(path, xlsx, { to: "xlsx" });
  writeFileSync(fromBrowser, Uint8Array.from(output));
  await convertFile(xlsx, expected, { to: "json" });
  await convertFile(fromBrowser, actual, { to: "json" });
  expect(readFileSync(actual).equals(readFileSync(expected)), path).toBe(true);
}

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

describe("the browser entry and the Node entry", () => {
  it("give the same names: the package's types (dist/index.d.ts) hold for its browser build", async () => {
    const [node, browser] = await Promise.all([import("../../src/index.js"), import("../../src/browser.js")]);
    const missing = Object.keys(browser).filter((name) => !(name in node));
    expect(missing).toEqual([]);
    for (const name of Object.keys(browser)) {
      expect((node as Record<string, unknown>)[name], name).toBe((browser as Record<string, unknown>)[name]);
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

  it("is run in a realm without Node's globals", () => {
    expect(runInContext("[typeof Buffer, typeof process, typeof require, typeof global]", realm)).toEqual(
      Array(4).fill("undefined"),
    );
  });

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
    for (const path of fixtures) {
      const bytes = readFileSync(path);
      for (const options of CONVERSIONS) {
        const file = scratch(`.${options.to}`);
        const expected = await convertFile(path, file, options);
        expectConvertedAlike(driver.convert(bytes, { file: path, ...options }, 7), expected, file);
      }
    }
  });

  it("writes workbooks that read back as the ones convertFile writes (the ZIP's dates may differ)", async () => {
    for (const path of fixtures.filter((p) => p.includes("/valid/"))) {
      const converted = driver.convert(readFileSync(path), { file: path, to: "xlsx" }, 4096);
      await expectWorkbookAlike(converted.output, path);
    }
  });
});

describe("the browser bundle's workbooks, read from a Blob", () => {
  const workbooks = ["valid", "invalid", "workbooks"].flatMap((folder) =>
    readdirSync(join(root, "fixtures", folder))
      .filter((name) => /\.xls[xm]?$/.test(name))
      .map((name) => join(root, "fixtures", folder, name)),
  );

  /** validateWorkbook of `bytes` is validateFile's report of them in a file, with progress told up to the same total. */
  const expectValidatedAlike = async (bytes: Uint8Array, options: ValidateOptions, what: string) => {
    const path = options.file ?? scratch(".xlsx");
    if (!options.file) writeFileSync(path, bytes);
    const progress: number[] = [];
    const expected = await validateFile(path, {
      ...options,
      format: "xlsx",
      onProgress: (b) => progress.push(b),
    });
    const actual = await driver.validateWorkbook(bytes, { ...options, file: path });
    expect(comparable(actual.report), what).toEqual(comparable(expected));
    // told as the sheet is inflated: in as many steps as each inflater gives, up to the same total
    expect(actual.progress.at(-1), `${what}: progress`).toBe(progress.at(-1));
    expect(actual.progress, `${what}: progress`).toEqual([...actual.progress].sort((a, b) => a - b));
    return expected;
  };

  it("validates every workbook fixture as validateFile does, any sheet asked for", async () => {
    expect(workbooks.length).toBeGreaterThanOrEqual(12);
    for (const path of workbooks) {
      for (const sheet of [undefined, "Users", "staff"]) {
        const options = sheet === undefined ? { file: path } : { file: path, sheet };
        await expectValidatedAlike(readFileSync(path), options, `${path} ${sheet}`);
      }
    }
  });

  it("converts every workbook fixture into the bytes convertFile writes, with the same report", async () => {
    for (const path of workbooks) {
      for (const options of [...CONVERSIONS, {}]) {
        const file = scratch(`.${options.to ?? "json"}`);
        const expected = await convertFile(path, file, { format: "xlsx", ...options });
        const converted = await driver.convertWorkbook(readFileSync(path), { file: path, ...options });
        expectConvertedAlike(converted, expected, file);
      }
    }
  });

  it("converts workbooks into workbooks that read back as convertFile's do", async () => {
    for (const path of workbooks.filter((p) => p.includes("/valid/"))) {
      const converted = await driver.convertWorkbook(readFileSync(path), { file: path, to: "xlsx" });
      await expectWorkbookAlike(converted.output, path);
    }
  });

  it("reads workbooks stored, in ZIP64, and larger than a read as Node does", async () => {
    const path = join(root, "fixtures/workbooks/bad-status.xlsx");
    const parts = unzipSync(readFileSync(path));
    for (const [form, bytes] of [
      ["stored", zipSync(parts, { level: 0 })],
      ["ZIP64", zip64Archive(parts)],
    ] as const) {
      const report = await expectValidatedAlike(bytes, {}, form);
      expect(report.findings.map((f) => [f.code, f.cell])).toEqual([["user.status.enum", "Users!D3"]]);
    }
    // a sheet whose compressed data takes several reads, and inflates in many pieces
    const users = Array.from({ length: 12_000 }, (_, i) => ({
      email: `user${i}@example.com`,
      id: String(10_000 + i),
      firstName: `Name ${i % 997}`,
      status: i % 5 ? "active" : "Suspended",
    }));
    const written: Uint8Array[] = [];
    await pipeDocument([JSON.stringify({ users })], new XlsxWriter((b) => written.push(b.slice())), {
      format: "json",
    });
    const large = scratch(".xlsx");
    writeFileSync(large, Buffer.concat(written));
    expect(unzipSync(readFileSync(large))["xl/worksheets/sheet1.xml"]?.length).toBeGreaterThan(1 << 20);
    const report = await expectValidatedAlike(readFileSync(large), { file: large }, "large");
    expect(report.counts.error).toBe(2400);
    const csv = scratch(".csv");
    const expected = comparable(await convertFile(large, csv, { to: "csv", force: true }));
    const converted = await driver.convertWorkbook(readFileSync(large), {
      file: large,
      to: "csv",
      force: true,
    });
    if (expected.output) expected.output.file = null;
    expect(comparable(converted.report)).toEqual(expected);
    expect(Buffer.from(converted.output).equals(readFileSync(csv))).toBe(true);
  });

  it("reports a damaged workbook as Node does: cut short, or its central directory changed", async () => {
    const whole = readFileSync(join(root, "fixtures/workbooks/bad-status.xlsx"));
    const directory = centralDirectoryOffset(whole);
    const damaged: [string, Uint8Array][] = [
      1,
      2,
      100,
      3000,
      directory,
      whole.length - 22,
      whole.length - 1,
    ].map((cut) => [`cut at ${cut}`, whole.subarray(0, cut)]);
    for (let at = directory; at < whole.length; at += 5) {
      const bytes = Uint8Array.from(whole);
      bytes[at] = (bytes[at] as number) ^ 0xff;
      damaged.push([`byte ${at} flipped`, bytes]);
    }
    const codes = new Set<string>();
    for (const [what, bytes] of damaged) {
      const path = scratch(".xlsx");
      writeFileSync(path, bytes);
      const expected = await validateFile(path);
      for (const f of expected.findings) codes.add(f.code);
      const actual = await driver.validateWorkbook(bytes, { file: path });
      expect(comparable(actual.report), what).toEqual(comparable(expected));
    }
    expect(codes).toContain("xlsx.corrupt");
  });
});
