// A workbook read on a worker thread gives exactly the report of one read in this thread, and
// hands on the same records: on every workbook fixture, on generated workbooks with damaged
// cells and rows, and after any bytes of the archive changed. The worker is a built script
// (dist/), which `npm test` makes first.

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { DataRecord, Report, ValidateOptions } from "../../src/index.js";
import { normalizeValidateOptions } from "../../src/pass/options.js";
import { fileSource, type PassThreads, runPass, streamSource } from "../../src/pass/runPass.js";
import { chunked, stream } from "../support/chunks.js";
import { handWorkbook, inlineRow } from "../support/handWorkbook.js";
import { fixture, root } from "../support/paths.js";
import { byteChangesArb, changed } from "../support/zipArchives.js";

const workers = pathToFileURL(`${root}dist/`);
const dir = mkdtempSync(join(tmpdir(), "syncfile-parallel-xlsx-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const temp = (bytes: Uint8Array) => {
  const path = join(dir, `${files++}.xlsx`);
  writeFileSync(path, bytes);
  return path;
};

/** The workbook at `path` read on `threads`: its report (without its timing) and the records handed on. */
async function pass(threads: PassThreads, path: string, options: ValidateOptions = {}) {
  const records: unknown[] = [];
  const tap = (record: DataRecord) =>
    records.push({ kind: record.kind, pointer: record.pointer, value: record.value });
  const result = await runPass(
    await fileSource(path),
    normalizeValidateOptions({ ...options, format: "xlsx", parallel: threads !== "one" }),
    { workers, tap },
  );
  expect(result.threads).toBe(threads);
  return { report: withoutTime(result.report), records };
}

const withoutTime = (report: Report) => ({ ...report, stats: { ...report.stats, durationMs: 0 } });

/** Both readings of the workbook at `path` agree. */
async function agree(path: string, options: ValidateOptions = {}): Promise<Report> {
  const parallel = await pass("xlsx-worker", path, options);
  const one = await pass("one", path, options);
  expect(parallel).toEqual(one);
  return parallel.report as Report;
}

describe("a workbook read on a worker thread", { timeout: 120_000 }, () => {
  const fixtures = ["valid", "invalid", "workbooks"].flatMap((folder) =>
    readdirSync(fixture(folder))
      .filter((f) => f.endsWith(".xlsx"))
      .map((f) => `${folder}/${f}`),
  );

  it("has fixtures to read", () => {
    expect(fixtures.length).toBeGreaterThan(10);
  });

  it.each(fixtures)("matches one thread on %s", async (name) => {
    await agree(fixture(name), name.includes(".size.") ? { maxRecordBytes: 100 } : {});
  });

  // rows with what goes wrong in a sheet: a shared string index that points nowhere, a formula
  // without its result, an error value, a cell past the header, a cell or a row over the limit
  const cellArb = fc.constantFrom(
    '<c t="inlineStr"><is><t>ada@example.com</t></is></c>',
    '<c t="inlineStr"><is><t>Ada &amp; Bo</t></is></c>',
    '<c t="s"><v>0</v></c>',
    '<c t="s"><v>1</v></c>',
    '<c t="s"><v>7</v></c>',
    "<c><f>A1*2</f></c>",
    '<c t="e"><v>#N/A</v></c>',
    "<c><v>45000</v></c>",
    '<c s="1"><v>45000.5</v></c>',
    `<c t="inlineStr"><is><t>${"x".repeat(150)}</t></is></c>`,
    "<c/>",
  );
  const sheetArb = fc.array(fc.array(cellArb, { maxLength: 6 }), { maxLength: 30 }).map((rows) =>
    handWorkbook({
      rows: [
        inlineRow(1, ["email", "firstName", "status", "licenseName"]),
        ...rows.map((cells, k) => `<row r="${k + 2}">${cells.join("")}</row>`),
      ],
      strings: "<si><t>active</t></si><si><t>Pro</t></si>",
    }),
  );

  it("matches one thread on generated sheets, damaged cells and all, under any limit", async () => {
    await fc.assert(
      fc.asyncProperty(sheetArb, fc.constantFrom(100, 300, 1 << 20), async (bytes, maxRecordBytes) => {
        await agree(temp(bytes), { maxRecordBytes, maxErrors: 20 });
      }),
      { numRuns: 25 },
    );
  });

  it("matches one thread after any bytes of the archive changed", async () => {
    const whole = readFileSync(fixture("workbooks/bad-status.xlsx"));
    await fc.assert(
      fc.asyncProperty(byteChangesArb(whole.length), async (changes) => {
        await agree(temp(changed(whole, changes)));
      }),
      { numRuns: 25 },
    );
  });

  it("reads a sheet of many batches in order, telling how far it got as one thread does", async () => {
    const rows = Array.from({ length: 5000 }, (_, k) =>
      inlineRow(k + 2, [`user${k}@example.com`, `User ${k}`, "active", k % 3 ? "Pro" : ""]),
    );
    const path = temp(
      handWorkbook({ rows: [inlineRow(1, ["email", "firstName", "status", "licenseName"]), ...rows] }),
    );
    const report = await agree(path);
    expect(report.stats.users).toBe(5000);
    const told = async (parallel: boolean) => {
      const bytes: number[] = [];
      const source = await fileSource(path);
      const options = normalizeValidateOptions({
        format: "xlsx",
        parallel,
        onProgress: (b) => bytes.push(b),
      });
      const result = await runPass(source, options, { workers });
      expect(result.threads).toBe(parallel ? "xlsx-worker" : "one");
      return bytes;
    };
    const parallel = await told(true);
    expect(parallel.length).toBeGreaterThan(1);
    expect(parallel).toEqual([...parallel].sort((a, b) => a - b));
    // as far as one thread tells: the sheet's part read to its end
    expect(parallel.at(-1)).toBe((await told(false)).at(-1));
  });

  it("sends a batch a row when its rows are large (one long shared string used again and again), waiting for each", async () => {
    const long = "L".repeat(300_000);
    const rows = Array.from(
      { length: 40 },
      (_, k) =>
        `<row r="${k + 2}"><c t="inlineStr"><is><t>u${k}@example.com</t></is></c><c t="s"><v>0</v></c></row>`,
    );
    const path = temp(
      handWorkbook({
        rows: [inlineRow(1, ["email", "firstName"]), ...rows],
        strings: `<si><t>${long}</t></si>`,
      }),
    );
    const report = await agree(path, { maxErrors: 5 });
    expect(report.stats.users).toBe(40);
  });

  it("reads a workbook from a stream (standard input) on the worker too, from its spooled copy", async () => {
    const bytes = readFileSync(fixture("workbooks/bad-status.xlsx"));
    const options = normalizeValidateOptions({ format: "xlsx", parallel: true });
    const result = await runPass(streamSource(stream(chunked(bytes, 1000))), options, { workers });
    expect(result.threads).toBe("xlsx-worker");
    const one = await pass("one", fixture("workbooks/bad-status.xlsx"));
    expect({ ...withoutTime(result.report), file: one.report.file }).toEqual(one.report);
  });
});
