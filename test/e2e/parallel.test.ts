// Validation on worker threads gives exactly the report of validation in one thread: on
// every fixture, and on generated and mutated documents in any chunking. Each parallel pass
// is shown to have run on its workers. The workers are built scripts (dist/), which
// `npm test` makes first; without them these tests fail rather than compare one thread with
// itself.

import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { ByteSource } from "../../src/bytes/byteSource.js";
import { chunksOf } from "../../src/bytes/readChunks.js";
import { AsReadRouter } from "../../src/convert/RecordRouter.js";
import * as library from "../../src/index.js";
import { formatOf, normalizeValidateOptions, type ValidateOptions } from "../../src/pass/options.js";
import { prestartJsonWorker, takeJsonWorker } from "../../src/pass/prestart.js";
import {
  fileSource,
  PARALLEL_FROM,
  type PassSource,
  type PassThreads,
  runPass,
  streamSource,
  threadsFor,
} from "../../src/pass/runPass.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { csvBytes, csvSpecArb } from "../support/csvText.js";
import { documentArb, documentBytes, mutationArb, spacesArb } from "../support/jsonAst.js";
import { cli, fixture, root } from "../support/paths.js";

const workers = pathToFileURL(`${root}dist/`);

/**
 * A pass over `source` that must run on `threads`; its report. `asRowsCome`: how many license
 * users of a CSV file each thread checks as their rows come.
 */
async function passOn(
  threads: PassThreads,
  source: PassSource,
  options: ValidateOptions,
  tap: ((record: library.DataRecord) => void) | null = null,
  asRowsCome?: number,
): Promise<library.Report> {
  const result = await runPass(source, normalizeValidateOptions({ ...options, parallel: true }), {
    workers,
    tap,
    ...(asRowsCome === undefined ? {} : { asRowsCome }),
  });
  expect(result.threads).toBe(threads);
  return result.report;
}

/** A stream's pass on the workers of its format. */
const onWorkers = (source: ByteSource, options: ValidateOptions = {}, asRowsCome?: number) =>
  passOn(
    options.format === "csv" ? "csv-worker" : "json-worker",
    streamSource(source),
    options,
    null,
    asRowsCome,
  );

// findings that stop reading: how far reading got before it stopped depends on the chunking
const FATAL = new Set([
  "json.syntax",
  "json.encoding",
  "json.depth",
  "json.trailing",
  "document.type",
  "csv.quote",
  "csv.encoding",
  "csv.record.size",
  "csv.header.missing",
  "csv.empty",
  "file.type",
]);

/** Generated documents, valid or not, after at most one mutation: their bytes. */
const generatedJson = fc
  .tuple(documentArb, spacesArb, fc.option(mutationArb))
  .map(([doc, spaces, m]) => documentBytes(doc, spaces, m));

/** The report without what may differ between runs: timing, and bytes read past a fatal problem. */
function comparable(report: library.Report) {
  const fatal = report.findings.some((f) => FATAL.has(f.code));
  return { ...report, stats: { ...report.stats, durationMs: 0, bytes: fatal ? 0 : report.stats.bytes } };
}

/**
 * `bytes` converted to JSON as read by a pass on `threads` (its license users rendered on the
 * parsing thread on two), in chunks of `size`: the report and the JSON.
 */
async function convertedOn(
  threads: "one" | "csv-worker",
  bytes: Uint8Array,
  size: number,
  options: ValidateOptions,
  asRowsCome?: number,
): Promise<{ report: library.Report; text: string }> {
  let text = "";
  const router = new AsReadRouter(
    new library.JsonWriter((s) => {
      text += s;
    }),
  );
  const result = await runPass(
    streamSource(stream(chunked(bytes, size))),
    normalizeValidateOptions({ ...options, parallel: threads !== "one" }),
    {
      workers,
      tap: (record) => router.record(record),
      licenseUserItems: router.licenseUserItems,
      ...(asRowsCome === undefined ? {} : { asRowsCome }),
    },
  );
  expect(result.threads).toBe(threads);
  router.end();
  return { report: result.report, text };
}

/** What two passes hand on, each through its own tap (`tap(0)`, `tap(1)`). */
type Tap = (record: library.DataRecord) => void;

/**
 * Runs `parallel` (a pass on two threads, resolving to its report) and `one` (the same input on
 * one thread), each with a tap of its own: the same report, the same records handed on.
 */
async function sameAsOneThread(
  parallel: (tap: Tap) => Promise<library.Report>,
  one: (tap: Tap) => Promise<{ threads: PassThreads; report: library.Report }>,
): Promise<void> {
  const handedOn: unknown[][] = [[], []];
  const tap = (k: number) => (record: library.DataRecord) =>
    handedOn[k]?.push({ kind: record.kind, pointer: record.pointer, value: record.value });
  const report = await parallel(tap(0));
  const single = await one(tap(1));
  expect(single.threads).toBe("one");
  expect(comparable(report)).toEqual(comparable(single.report));
  expect(handedOn[0]).toEqual(handedOn[1]);
}

/**
 * Runs `pass`, whose progress callback notes the turn of this thread's event loop each batch
 * is taken in; resolves to its result, the batches taken, and the most taken in one turn.
 */
async function batchesPerTurn<T>(
  pass: (onProgress: () => void) => Promise<T>,
): Promise<{ result: T; taken: number; mostInOneTurn: number }> {
  // the turns of the event loop, counted each time this thread gets back to it
  let turns = 0;
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const takenIn: number[] = []; // the turn each batch was taken in
  try {
    const result = await pass(() => takenIn.push(turns));
    const inOneTurn = new Map<number, number>();
    for (const turn of takenIn) inOneTurn.set(turn, (inOneTurn.get(turn) ?? 0) + 1);
    return { result, taken: takenIn.length, mostInOneTurn: Math.max(...inOneTurn.values()) };
  } finally {
    ticking = false;
  }
}

describe("how a pass runs", () => {
  const nothing: AsyncIterable<Uint8Array> = stream([]);
  const sized = (size: number | null): PassSource => ({ chunks: nothing, size, file: null });
  const threads = (options: ValidateOptions, size: number | null, tap = false, at = workers) =>
    threadsFor(normalizeValidateOptions(options), sized(size), { workers: at, tap: tap ? () => {} : null });

  it("uses a worker from 8 MiB by default, for streams only when asked, and never when told not to", () => {
    expect(threads({}, PARALLEL_FROM - 1)).toBe("one");
    expect(threads({}, PARALLEL_FROM)).toBe("json-worker");
    expect(threads({ format: "csv" }, PARALLEL_FROM)).toBe("csv-worker");
    expect(threads({}, null)).toBe("one");
    expect(threads({ parallel: true }, null)).toBe("json-worker");
    expect(threads({ parallel: false }, 10 * PARALLEL_FROM)).toBe("one");
    expect(threads({ format: "xlsx" }, PARALLEL_FROM)).toBe("xlsx-worker");
    expect(threads({ format: "xlsx" }, PARALLEL_FROM - 1)).toBe("one");
    expect(threads({ format: "xlsx", parallel: false }, 10 * PARALLEL_FROM)).toBe("one");
  });

  it("keeps the records and the tap in this thread, and needs the built workers", () => {
    expect(threads({ parallel: true }, null, true)).toBe("json-worker");
    expect(threads({ parallel: true, format: "csv" }, null, true)).toBe("csv-worker");
    expect(threads({ parallel: true }, null, false, new URL("file:///nowhere/"))).toBe("one");
  });
});

// Each property run starts worker threads; with the rest of the suite on the same two CPUs,
// 60 runs have taken over 30 s (the default timeout) in CI.
describe("parallel validation", { timeout: 120_000 }, () => {
  // JSON and CSV: workbooks have their own file (parallel.xlsx.test.ts)
  const files = [
    ...readdirSync(fixture("valid")).map((f) => `valid/${f}`),
    ...readdirSync(fixture("invalid")).map((f) => `invalid/${f}`),
    // exports read through their profiles: the parsing thread maps their rows too
    ...readdirSync(fixture("exports"), { withFileTypes: true })
      .filter((f) => f.isFile())
      .map((f) => `exports/${f.name}`),
    ...readdirSync(fixture("exports/unprofiled"))
      .filter((f) => f.endsWith(".csv"))
      .map((f) => `exports/unprofiled/${f}`),
  ].filter((f) => !f.endsWith(".xlsx") && !f.endsWith(".expected.json"));

  it.each(files)("matches one thread on %s", async (name) => {
    const options = name.includes("record.size") ? { maxRecordBytes: 100 } : {};
    const file = { ...options, file: fixture(name), format: formatOf(name) };
    // a UTF-16 file (Excel's Unicode Text, the one .txt) is read in one thread, asked or not
    const threads = name.endsWith(".csv") ? "csv-worker" : name.endsWith(".txt") ? "one" : "json-worker";
    const parallel = await passOn(threads, await fileSource(fixture(name)), file);
    const single = await library.validateFile(fixture(name), { ...options, parallel: false });
    expect(comparable(parallel)).toEqual(comparable(single));
  });

  it("reads a UTF-16 stream asked for on workers in one thread, as it reads the file", async () => {
    const bytes = readFileSync(fixture("exports/unicode-text.txt"));
    const single = await library.validateFile(fixture("exports/unicode-text.txt"), { parallel: false });
    expect(single.text).toEqual({ encoding: "UTF-16LE", delimiter: "\t" });
    for (const size of [1, 3, 64]) {
      const parallel = await passOn("one", streamSource(stream(chunked(bytes, size))), { format: "csv" });
      expect(comparable(parallel)).toEqual(comparable({ ...single, file: null }));
    }
  });

  it("matches one thread on generated and mutated documents, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(generatedJson, fc.integer({ min: 1, max: 300 }), async (bytes, size) => {
        const parallel = await onWorkers(stream(chunked(bytes, size)), { maxErrors: 50 });
        const single = library.validateText(bytes, { maxErrors: 50 });
        expect(comparable(parallel)).toEqual(comparable(single));
      }),
      { numRuns: 60 },
    );
  });

  it("stops reading soon after a syntax error early in a large input", async () => {
    async function* big(): AsyncGenerator<Uint8Array> {
      yield utf8('{"users":[{"email":"a@b.co", "x": tru}');
      const block = utf8(`,${JSON.stringify({ email: "c@d.co" })}`.repeat(4000));
      for (let i = 0; i < 2000; i++) yield block;
      yield utf8("]}");
    }
    const report = await onWorkers(big());
    expect(report.findings.map((f) => f.code)).toEqual(["json.syntax"]);
    expect(report.stats.bytes).toBeLessThan(5_000_000);
  });

  describe("a file, read by the decoding thread", () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-parallel-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const users = (n: number) =>
      Array.from({ length: n }, (_, i) => `{"email":"user${i}@example.com","name":"User ${i}"}`).join(",\n");

    it("tells the main thread how far it has read, up to the whole file", async () => {
      const path = join(dir, "many.json");
      writeFileSync(path, `{"users":[\n${users(60_000)}\n]}`);
      const told: number[] = [];
      const onProgress = (bytes: number) => told.push(bytes);
      const source = await fileSource(path);
      const result = await runPass(source, normalizeValidateOptions({ parallel: true, onProgress }), {
        workers,
      });
      expect(result.threads).toBe("json-worker");
      expect(result.report.valid).toBe(true);
      expect(result.report.stats.users).toBe(60_000);
      expect(told.length).toBeGreaterThan(2);
      expect(told).toEqual([...told].sort((a, b) => a - b));
      expect(told.at(-1)).toBe(source.size);
      expect(result.report.stats.bytes).toBe(source.size);
    });

    it("lets this thread's other events in between batches (a server answers while a sync reads its file)", async () => {
      const path = join(dir, "turns.json");
      writeFileSync(path, `{"users":[\n${users(200_000)}\n]}`);
      // chunks of 16 KB: over a hundred batches of four
      const { result, taken, mostInOneTurn } = await batchesPerTurn(async (onProgress) =>
        runPass(await fileSource(path), normalizeValidateOptions({ parallel: true, onProgress }), {
          workers,
          chunkSize: 16 * 1024,
        }),
      );
      expect(result.threads).toBe("json-worker");
      expect(taken).toBeGreaterThan(100);
      // each batch is taken in a turn of its own, two at most on their way (a turn's edge may
      // fall between two): taken in the port's own run of messages, one turn took 141 to 172
      expect(mostInOneTurn).toBeLessThanOrEqual(4);
    });

    it("matches one thread on generated and mutated documents, read in chunks of any size, the same records handed on", async () => {
      const path = join(dir, "generated.json");
      await fc.assert(
        fc.asyncProperty(generatedJson, fc.integer({ min: 1, max: 300 }), async (bytes, chunkSize) => {
          writeFileSync(path, bytes);
          await sameAsOneThread(
            async (tap) => {
              const options = normalizeValidateOptions({ parallel: true, maxErrors: 50 });
              const result = await runPass(await fileSource(path), options, { workers, chunkSize, tap });
              expect(result.threads).toBe("json-worker");
              return result.report;
            },
            (tap) =>
              runPass(
                streamSource(stream([bytes])),
                normalizeValidateOptions({ parallel: false, maxErrors: 50 }),
                {
                  tap,
                },
              ),
          );
        }),
        { numRuns: 40 },
      );
    });

    it("is read by a decoding thread started before its pass as by one the pass starts", async () => {
      const path = join(dir, "prestarted.json");
      writeFileSync(path, `{"users":[\n${users(200_000)}\n]}`);
      const size = readFileSync(path).byteLength;
      expect(size).toBeGreaterThanOrEqual(PARALLEL_FROM);
      const pass = async (prestart: boolean) => {
        if (prestart) prestartJsonWorker(size, workers);
        const told: number[] = [];
        const options = normalizeValidateOptions({ parallel: true, onProgress: (bytes) => told.push(bytes) });
        const result = await runPass(await fileSource(path), options, { workers, chunkSize: 64 * 1024 });
        expect(result.threads).toBe("json-worker");
        return { report: { ...result.report, stats: { ...result.report.stats, durationMs: 0 } }, told };
      };
      const started = await pass(true);
      expect(takeJsonWorker(workers)).toBeNull(); // the pass took it
      const plain = await pass(false);
      expect(started.report).toEqual(plain.report);
      expect(started.report.stats.users).toBe(200_000);
      expect(started.told.length).toBeGreaterThan(2);
      expect(started.told.at(-1)).toBe(size);
      // none is started for a small file, and one started for other scripts is not taken
      prestartJsonWorker(PARALLEL_FROM - 1, workers);
      expect(takeJsonWorker(workers)).toBeNull();
      prestartJsonWorker(size, workers);
      expect(takeJsonWorker(new URL("file:///nowhere/"))).toBeNull();
      expect(takeJsonWorker(workers)).toBeNull();
    });

    it("keeps no process waiting when it started a decoding thread and stopped before its pass", () => {
      const path = join(dir, "stopped.json");
      writeFileSync(path, `{"users":[\n${users(200_000)}\n]}`);
      // a usage error found after the thread was started: the command ends at once, exit 2
      const run = spawnSync(
        process.execPath,
        [cli, "convert", path, join(dir, "out.csv"), "--rates", "nowhere.json"],
        {
          encoding: "utf8",
          timeout: 30_000,
        },
      );
      expect(run.signal).toBeNull();
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/--rates/);
    });

    it("stops reading soon after a syntax error early in a large file", async () => {
      const path = join(dir, "broken.json");
      writeFileSync(path, `{"users":[{"email":"a@b.co", "x": tru},\n${users(400_000)}\n]}`);
      const report = await passOn("json-worker", await fileSource(path), {});
      expect(report.findings.map((f) => f.code)).toEqual(["json.syntax"]);
      expect(report.findings[0]?.line).toBe(1);
      expect(report.stats.bytes).toBeLessThan(5_000_000);
    });
  });

  it("matches one thread on generated CSV, broken or not, in any chunking", async () => {
    await fc.assert(
      fc.asyncProperty(csvSpecArb, fc.integer({ min: 1, max: 300 }), async (spec, size) => {
        const bytes = await csvBytes(spec);
        const options = { format: "csv" as const, maxErrors: 50 };
        const parallel = await onWorkers(stream(chunked(bytes, size)), options);
        const single = library.validateText(bytes, options);
        expect(comparable(parallel)).toEqual(comparable(single));
      }),
      { numRuns: 60 },
    );
  });

  it("tells rows' users apart as one thread does: emails in any case, a user's rows anywhere, conflicts, license users' findings under any limit, checked as their rows come or after the last, with a tap or without", async () => {
    // few emails and few values, so that users come back far apart, in another case, and disagree;
    // license users that are malformed or listed twice, in licenses whose rows interleave
    const cell = (values: string[]) => fc.constantFrom("", ...values);
    const rowArb = fc.tuple(
      fc.constantFrom(
        "",
        "ada@example.com",
        "ADA@example.com",
        "bo@example.com",
        "cy@example.com",
        "Cy@Example.com",
        "not-an-email",
      ),
      cell(["Ada", "Bo"]),
      cell(["active", "Deleted", "inactive"]),
      cell(["Admin;Member", "[oops"]),
      cell(["Pro", "Team, Pro", "Basic"]),
      cell(["active", "ACTIVE", "gone"]),
      cell(["10", "12"]),
    );
    const fileArb = fc.record({
      dialect: fc.boolean(),
      rows: fc.array(
        fc.oneof({ weight: 9, arbitrary: rowArb }, { weight: 1, arbitrary: fc.constant(null) }),
        {
          maxLength: 40,
        },
      ),
    });
    await fc.assert(
      fc.asyncProperty(
        fileArb,
        fc.integer({ min: 1, max: 200 }),
        fc.constantFrom(1, 2, 5, 1000),
        // license users each thread checks as their rows come, before it keeps the rest for the end
        fc.constantFrom(0, 1, 4, 1_000_000),
        async ({ dialect, rows }, size, maxErrors, asRowsCome) => {
          const header = `email,firstName,status,roles,${dialect ? "Licenses" : "licenseName"},licenseStatus,pricePerUser`;
          const lines = rows.map((row) =>
            row ? row.map((c) => (c.includes(",") ? `"${c}"` : c)).join(",") : "",
          );
          const bytes = utf8([header, ...lines, ""].join("\n"));
          const options = { format: "csv" as const, maxErrors };
          const parallel = await onWorkers(stream(chunked(bytes, size)), options, asRowsCome);
          const single = library.validateText(bytes, options);
          expect(comparable(parallel)).toEqual(comparable(single));
          // with a tap (converting): the parsing thread checks every license user, or gives up
          await sameAsOneThread(
            (tap) =>
              passOn("csv-worker", streamSource(stream(chunked(bytes, size))), options, tap, asRowsCome),
            (tap) =>
              runPass(
                streamSource(stream([bytes])),
                normalizeValidateOptions({ ...options, parallel: false }),
                {
                  tap,
                },
              ),
          );
          // converting to JSON as read: the parsing thread renders the license users, checks
          // them all (the rest after the last row) and never gives up; the same JSON
          const converted = await convertedOn("csv-worker", bytes, size, options, asRowsCome);
          const one = await convertedOn("one", bytes, size, options);
          expect(comparable(converted.report)).toEqual(comparable(one.report));
          expect(converted.text).toBe(one.text);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("converts CSV on two threads to the same JSON as on one", async () => {
    const bytes = utf8(readFileSync(fixture("valid/example.csv"), "utf8"));
    const outputs: string[] = [];
    for (const parallel of [true, false]) {
      let text = "";
      const writer = new library.JsonWriter((s) => {
        text += s;
      });
      const source = stream(chunked(bytes, 7));
      const router = new AsReadRouter(writer);
      const report = parallel
        ? await passOn("csv-worker", streamSource(source), { format: "csv" }, (record) =>
            router.record(record),
          )
        : await library.pipeDocument(source, writer, { format: "csv", parallel: false });
      if (parallel) router.end();
      expect(report.valid).toBe(true);
      outputs.push(text);
    }
    expect(outputs[0]).toBe(outputs[1]);
  });

  it("stops reading soon after a broken quote early in a large CSV", async () => {
    async function* big(): AsyncGenerator<Uint8Array> {
      yield utf8('email,firstName\na@b.co,"Ada\n');
      const block = utf8("c@d.co,Cy\n".repeat(4000));
      for (let i = 0; i < 2000; i++) yield block;
    }
    const report = await onWorkers(big(), { format: "csv", maxRecordBytes: 1000 });
    expect(report.findings.map((f) => f.code)).toEqual(["csv.record.size"]);
    expect(report.stats.bytes).toBeLessThan(5_000_000);
  });

  describe("a CSV file, read by the parsing thread", () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-parallel-csv-"));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const rows = (n: number) =>
      Array.from({ length: n }, (_, i) => `user${i}@example.com,User ${i},active\n`).join("");

    it("reads the file past its header there: this thread takes only the start, and hears how far it got", async () => {
      const path = join(dir, "many.csv");
      writeFileSync(path, `email,firstName,status\n${rows(60_000)}`);
      const opened = await fileSource(path);
      // the chunks this thread takes, counted: the header's, and no more
      let taken = 0;
      async function* counted(): AsyncGenerator<Uint8Array> {
        for await (const chunk of opened.chunks) {
          taken++;
          yield chunk;
        }
      }
      const told: number[] = [];
      const onProgress = (bytes: number) => told.push(bytes);
      const options = normalizeValidateOptions({ parallel: true, format: "csv", onProgress });
      const result = await runPass({ ...opened, chunks: counted() }, options, { workers, chunkSize: 4096 });
      expect(result.threads).toBe("csv-worker");
      expect(result.report.valid).toBe(true);
      expect(result.report.stats.users).toBe(60_000);
      expect(taken).toBe(1);
      expect(told.length).toBeGreaterThan(2);
      expect(told).toEqual([...told].sort((a, b) => a - b));
      expect(told.at(-1)).toBe(opened.size);
      expect(result.report.stats.bytes).toBe(opened.size);
    });

    it("matches one thread on generated CSV, broken or not, its start read here and the rest there in chunks of any size, the same records handed on", async () => {
      const path = join(dir, "generated.csv");
      await fc.assert(
        fc.asyncProperty(
          csvSpecArb,
          fc.integer({ min: 1, max: 300 }),
          fc.integer({ min: 1, max: 300 }),
          async (spec, headChunk, chunkSize) => {
            writeFileSync(path, await csvBytes(spec));
            const options = (parallel: boolean) =>
              normalizeValidateOptions({ parallel, format: "csv", maxErrors: 50 });
            await sameAsOneThread(
              async (tap) => {
                // this thread reads the start in chunks of `headChunk`: the worker takes over anywhere
                const opened = await fileSource(path);
                const chunks = chunksOf(opened.file as FileHandle, headChunk);
                const result = await runPass({ ...opened, chunks }, options(true), {
                  workers,
                  chunkSize,
                  tap,
                });
                expect(result.threads).toBe("csv-worker");
                return result.report;
              },
              async (tap) => runPass(await fileSource(path), options(false), { tap }),
            );
          },
        ),
        { numRuns: 60 },
      );
    });

    it("lets this thread's other events in between batches (a server answers while a sync reads its file)", async () => {
      const path = join(dir, "turns.csv");
      writeFileSync(path, `email,firstName,status\n${rows(100_000)}`);
      const { result, taken, mostInOneTurn } = await batchesPerTurn(async (onProgress) => {
        const options = normalizeValidateOptions({ parallel: true, format: "csv", onProgress });
        return runPass(await fileSource(path), options, { workers, chunkSize: 16_384 });
      });
      expect(result.threads).toBe("csv-worker");
      expect(result.report.stats.users).toBe(100_000);
      expect(taken).toBeGreaterThan(100);
      // each batch is taken in a turn of its own (a turn's edge may fall between two): taken as
      // the port hands them on, a turn took the sixteen batches in flight, and more
      expect(mostInOneTurn).toBeLessThanOrEqual(4);
    });

    it("stops reading soon after a broken quote early in a large file", async () => {
      const path = join(dir, "broken.csv");
      writeFileSync(path, `email,firstName\na@b.co,"Ada\n${"c@d.co,Cy\n".repeat(800_000)}`);
      const report = await passOn("csv-worker", await fileSource(path), {
        format: "csv",
        maxRecordBytes: 1000,
      });
      expect(report.findings.map((f) => f.code)).toEqual(["csv.record.size"]);
      expect(report.stats.bytes).toBeLessThan(5_000_000);
    });
  });
});
