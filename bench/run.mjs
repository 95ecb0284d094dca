// npm run bench: syncfile's speed and memory next to baselines measured in the same run.
// Data is generated into bench/.data/ (ignored by git). Not part of npm test.
//   BENCH_ROUNDS=5 npm run bench     more alternating rounds (default 3)
//   BENCH_SKIP_1GB=1 npm run bench   skip the 1 GB runs
//   parts json and csv measure 100 MB of each shape of data (bench/_shapes.mjs): BENCH_JSON_MB=100 and
//   BENCH_CSV_MB=100 set the size; BENCH_SHAPES=json-pretty,csv-licenses only some (comma-separated) of
//   json-pretty, json-lines, json-one-line, json-license-heavy, json-many-licenses (JSON validate) and
//   csv-licenses, csv-one-license, csv-no-licenses (CSV → JSON)
// Miller (Debian package `miller`) is the CSV → JSON baseline; without it that row is skipped.
//   BENCH_SKIP_SERVER=1 npm run bench   skip the server's load and sync runs
//   BENCH_ONLY=server npm run bench     only some parts: json, csv, exports, diff, xlsx, server, pages, postgres, sources (comma-separated)
//   part sources: a job's sql source, BENCH_SOURCE_USERS users (default 1 M) from PostgreSQL to the JSON a push sends, against psql's \copy then convert
//   BENCH_USERS=4000000                 how many users the pages part reads (default 4 M), on each backend
//   parts pages and postgres run on PostgreSQL too when it answers (BENCH_POSTGRES_URL).
//   part postgres: the 1 GB JSON sync of the pretty-printed and the license-heavy shape, each then again into the same account (replacing its rows), on the embedded and the PostgreSQL backend, next to psql's COPY of the same rows (BENCH_POSTGRES_URL, default
//   postgres://postgres@127.0.0.1:5432/postgres: a database is created and dropped; skipped when none answers);
//   BENCH_SYNC_MB=100 for a smaller file, BENCH_SYNC_ROUNDS=3 for more rounds (default 1: the embedded one takes minutes)
//   BENCH_ONLY=scaling                  only when named: validate, convert (JSON → CSV) and a first sync on PostgreSQL
//                                       (embedded when none answers) of JSON files of 0.1, 1 and 4 GB (BENCH_SCALE_MB=100,1000,4000),
//                                       pretty-printed and license-heavy (BENCH_SHAPES), once each: time and peak memory against
//                                       size (the 4 GB files take minutes)

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { exportData, jsonData, jsonNextData, shapeData, xlsxData } from "./_data.mjs";
import { available, mb, measureNode, measureProgram, median, rate, withBusyCpu } from "./_measure.mjs";
import { CSV_SHAPES, JSON_SHAPES, selectShapes } from "./_shapes.mjs";
import {
  accountOfUsers,
  KEYS,
  loadCampaigns,
  probeDuring,
  startServe,
  syncFile,
  timeGets,
} from "./server.mjs";

const root = fileURLToPath(new URL("../", import.meta.url));
const CLI = `${root}packages/cli/dist/cli.js`;
const BASELINE_JSON = `${root}bench/baseline-json.mjs`;
const BASELINE_EXCELJS = `${root}bench/baseline-exceljs.mjs`;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = process.env.BENCH_ONLY?.split(",").map((part) => part.trim());
const runs = (part) => !ONLY || ONLY.includes(part);

const line = (s = "") => process.stdout.write(`${s}\n`);
const row = (name, seconds, bytes, rss, note = "") =>
  line(
    `  ${name.padEnd(44)} ${seconds.toFixed(2).padStart(7)} s ${rate(bytes, seconds)} MB/s ${mb(rss)}  ${note}`,
  );
const check = (ok) => (ok ? "ok" : "MISSED");
const count = (n) => n.toLocaleString("en-US");
/**
 * A ratio and whether it meets its target (at most `target`), 18 characters wide: with three
 * decimals where two would show a ratio that misses as the target itself (1.00× MISSED).
 */
const against = (ratio, target) => {
  const ok = ratio <= target;
  const shown = !ok && Number(ratio.toFixed(2)) <= target ? ratio.toFixed(3) : ratio.toFixed(2);
  return `${shown.padStart(9)}× ${check(ok)}`.padEnd(18);
};
/** A run's wall time, rate and peak RSS, 28 characters wide. */
const cell = (r, bytes) =>
  `${r.seconds.toFixed(2).padStart(6)} s ${rate(bytes, r.seconds)} MB/s ${mb(r.rss)}`;
/** The last line of a part measured on shapes: whether its target is met on all, or where not. */
const verdict = (missed) => (missed.length === 0 ? "met on every shape" : `MISSED on ${missed.join(", ")}`);
const SHAPES = process.env.BENCH_SHAPES;
const SHAPE_WIDTH = 19;

/** The data file of about `megabytes` MB of each shape, generated first so that no run waits on it. */
async function generated(shapes, megabytes) {
  const files = [];
  for (const shape of shapes) files.push({ shape, data: await shapeData(shape, megabytes) });
  return files;
}

async function alternate(runs) {
  const results = runs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [k, runOnce] of runs.entries()) {
      const r = await runOnce();
      if (r.code !== 0 && r.code !== 1) throw new Error(`benchmark run failed (exit ${r.code}): ${r.stderr}`);
      results[k].push(r);
    }
  }
  return results.map((rs) => ({
    seconds: median(rs.map((r) => r.seconds)),
    rss: Math.max(...rs.map((r) => r.rss ?? 0)),
    cpu: rs.every((r) => typeof r.cpu === "number") ? median(rs.map((r) => r.cpu)) : null,
  }));
}

line(
  `syncfile bench — node ${process.version}, ${process.platform} ${process.arch}, ${cpus().length} CPUs, ${new Date().toISOString()}`,
);
line(`wall time is the median of ${ROUNDS} alternating rounds; peak RSS the largest seen`);

// ── JSON validate, 100 MB of each JSON shape: syncfile against readFileSync + JSON.parse + ajv ──
if (runs("json")) {
  const megabytes = Number(process.env.BENCH_JSON_MB ?? 100);
  const shapes = await generated(selectShapes(JSON_SHAPES, SHAPES), megabytes);
  if (shapes.length > 0) {
    line();
    line(
      `JSON validate, about ${megabytes} MB a shape: syncfile validate against readFileSync + JSON.parse + ajv (targets: time ≤ 1.0×, CPU time ≤ 1.3×)`,
    );
    for (const { shape, data } of shapes)
      line(
        `  ${shape.name.padEnd(SHAPE_WIDTH)} ${shape.title}: ${(data.bytes / 1e6).toFixed(0)} MB, ${count(data.users)} users, ${count(data.licenses)} licenses, ${count(data.licenseUsers)} license users`,
      );
    line(
      `  ${"shape".padEnd(SHAPE_WIDTH)} ${"syncfile validate".padEnd(28)} ${"baseline".padEnd(28)} ${"time / baseline".padEnd(18)} CPU / baseline`,
    );
    const missed = [];
    for (const { shape, data } of shapes) {
      const [ours, base] = await alternate([
        () => measureNode(CLI, ["validate", data.path, "--format", "json"]),
        () => measureNode(BASELINE_JSON, [data.path]),
      ]);
      const time = ours.seconds / base.seconds;
      const cpu = ours.cpu / base.cpu;
      if (!(time <= 1.0 && cpu <= 1.3)) missed.push(shape.name);
      line(
        `  ${shape.name.padEnd(SHAPE_WIDTH)} ${cell(ours, data.bytes)} ${cell(base, data.bytes)} ${against(time, 1.0)} ${against(cpu, 1.3)}`.trimEnd(),
      );
    }
    line(`  JSON validate targets: ${verdict(missed)}`);
  }
}

// ── JSON validate, 1 GB of each JSON shape: syncfile alone (the baseline cannot hold the file in
// a string), on an idle machine and with the other CPU kept busy
if (runs("json") && !process.env.BENCH_SKIP_1GB) {
  for (const [k, { shape, data }] of (await generated(selectShapes(JSON_SHAPES, SHAPES), 1000)).entries()) {
    line();
    line(
      `JSON validate, ${shape.name}, ${(data.bytes / 1e6).toFixed(0)} MB (${data.users.toLocaleString("en-US")} users, ${data.licenseUsers.toLocaleString("en-US")} license users)`,
    );
    const validate = () => measureNode(CLI, ["validate", data.path, "--format", "json"]);
    for (const busy of [false, true]) {
      const ours = busy ? await withBusyCpu(validate) : await validate();
      row(
        `syncfile validate${busy ? ", the other CPU kept busy" : ""}`,
        ours.seconds,
        data.bytes,
        ours.rss,
        `(target peak RSS ≤ 190 MB: ${check(ours.rss <= 190e6)})`,
      );
    }
    if (k > 0) continue;
    const base = await measureNode(BASELINE_JSON, [data.path]);
    const why =
      /(Cannot create a string[^\n]*|ERR_[A-Z_]+[^\n]*)/.exec(base.stderr)?.[1] ?? `exit ${base.code}`;
    line(
      `  ${"baseline: readFileSync + JSON.parse + ajv".padEnd(44)} fails after ${base.seconds.toFixed(2)} s: ${why}`,
    );
  }
}

// ── CSV: validate and convert 100 MB of each CSV shape; convert against Miller (mlr --icsv --ojson cat) ──
if (runs("csv")) {
  const megabytes = Number(process.env.BENCH_CSV_MB ?? 100);
  const shapes = await generated(selectShapes(CSV_SHAPES, SHAPES), megabytes);
  const miller = await available("mlr");
  const out = mkdtempSync(join(tmpdir(), "syncfile-bench-out-"));
  try {
    if (shapes.length > 0) {
      line();
      line(
        `CSV → JSON, about ${megabytes} MB a shape: syncfile convert against Miller's mlr --icsv --ojson cat, both to a file (targets: convert ≤ 0.8× Miller, validate ≤ 0.6× Miller's convert, convert peak RSS ≤ 200 MB)`,
      );
      for (const { shape, data } of shapes)
        line(
          `  ${shape.name.padEnd(SHAPE_WIDTH)} ${shape.title}: ${(data.bytes / 1e6).toFixed(0)} MB, ${count(data.users)} users, ${count(data.rows)} rows`,
        );
      line(
        `  ${"shape".padEnd(SHAPE_WIDTH)} ${"syncfile validate".padEnd(28)} ${"syncfile convert".padEnd(28)} ${"Miller".padEnd(28)} ${"convert / Miller".padEnd(18)} ${"validate / Miller".padEnd(18)} RSS ≤ 200 MB`,
      );
    }
    const missed = [];
    for (const { shape, data } of shapes) {
      const validateRun = () => measureNode(CLI, ["validate", data.path, "--format", "json"]);
      const convertRun = () =>
        measureNode(CLI, ["convert", data.path, join(out, "syncfile.json"), "--format", "json", "--force"]);
      const millerRun = () =>
        measureProgram("mlr", ["--icsv", "--ojson", "cat", data.path], { stdout: join(out, "mlr.json") });
      const [validate, ours, theirs] = await alternate(
        miller ? [validateRun, convertRun, millerRun] : [validateRun, convertRun],
      );
      const rss = check(ours.rss <= 200e6);
      if (!theirs) {
        line(
          `  ${shape.name.padEnd(SHAPE_WIDTH)} ${cell(validate, data.bytes)} ${cell(ours, data.bytes)} ${"(no Miller)".padEnd(28)} ${"".padEnd(37)} ${rss}`,
        );
        continue;
      }
      const ratio = ours.seconds / theirs.seconds;
      const validateRatio = validate.seconds / theirs.seconds;
      if (!(ratio <= 0.8)) missed.push(shape.name);
      line(
        `  ${shape.name.padEnd(SHAPE_WIDTH)} ${cell(validate, data.bytes)} ${cell(ours, data.bytes)} ${cell(theirs, data.bytes)} ${against(ratio, 0.8)} ${against(validateRatio, 0.6)} ${rss}`,
      );
    }
    if (shapes.length > 0)
      line(
        miller
          ? `  CSV → JSON target (≤ 0.8× Miller): ${verdict(missed)}`
          : "  baseline skipped: Miller (mlr) is not installed — apt-get install miller",
      );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ── An export read through its profile: 100 MB of Microsoft 365's layout, next to the same
// users in the service's layout ──
if (runs("exports")) {
  const data = await exportData(100);
  const out = mkdtempSync(join(tmpdir(), "syncfile-bench-out-"));
  try {
    line();
    line(
      `An export in a profile's layout (Microsoft 365 active users), ${(data.bytes / 1e6).toFixed(0)} MB (${data.users.toLocaleString("en-US")} users), and the same users in the service's layout, ${(data.canonicalBytes / 1e6).toFixed(0)} MB`,
    );
    const [validate, validateCanonical, convert, convertCanonical] = await alternate([
      () => measureNode(CLI, ["validate", data.path, "--format", "json"]),
      () => measureNode(CLI, ["validate", data.canonicalPath, "--format", "json"]),
      () => measureNode(CLI, ["convert", data.path, join(out, "from-export.json"), "--format", "json"]),
      () =>
        measureNode(CLI, [
          "convert",
          data.canonicalPath,
          join(out, "from-canonical.json"),
          "--format",
          "json",
        ]),
    ]);
    row("syncfile validate, the export", validate.seconds, data.bytes, validate.rss);
    row(
      "syncfile validate, the service's layout",
      validateCanonical.seconds,
      data.canonicalBytes,
      validateCanonical.rss,
    );
    row("syncfile convert → JSON, the export", convert.seconds, data.bytes, convert.rss);
    row(
      "syncfile convert → JSON, the service's layout",
      convertCanonical.seconds,
      data.canonicalBytes,
      convertCanonical.rss,
    );
    for (const [what, ours, theirs] of [
      ["validate", validate, validateCanonical],
      ["convert", convert, convertCanonical],
    ]) {
      const ratio = ours.seconds / theirs.seconds;
      line(
        `  ${what} time export / service's layout: ${ratio.toFixed(2)}×  (target ≤ 1.15×: ${check(ratio <= 1.15)})`,
      );
    }
    const same = readFileSync(join(out, "from-export.json")).equals(
      readFileSync(join(out, "from-canonical.json")),
    );
    line(`  the two JSON outputs are ${same ? "identical" : "DIFFERENT"}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ── diff: two days of the same users (statuses and license holders changed), 100 MB and 1 GB,
// next to validating both ──
if (runs("diff")) {
  for (const megabytes of process.env.BENCH_SKIP_1GB ? [100] : [100, 1000]) {
    const [before, after] = [await jsonData(megabytes), await jsonNextData(megabytes)];
    line();
    line(
      `diff of two JSON files of ${(before.bytes / 1e6).toFixed(0)} MB (${before.users.toLocaleString("en-US")} users each, other statuses and license holders)`,
    );
    const [diff, first, second] = await alternate([
      () => measureNode(CLI, ["diff", before.path, after.path]),
      () => measureNode(CLI, ["validate", before.path, "--format", "json"]),
      () => measureNode(CLI, ["validate", after.path, "--format", "json"]),
    ]);
    const both = first.seconds + second.seconds;
    row(
      "syncfile diff OLD NEW",
      diff.seconds,
      before.bytes + after.bytes,
      diff.rss,
      `(target peak RSS ≤ 300 MB: ${check(diff.rss <= 300e6)})`,
    );
    row(
      "syncfile validate, each file in turn",
      both,
      before.bytes + after.bytes,
      Math.max(first.rss, second.rss),
    );
    const ratio = diff.seconds / both;
    line(`  time diff / validating both: ${ratio.toFixed(2)}×  (target ≤ 2×: ${check(ratio <= 2)})`);
  }
}

// ── Excel workbook: validate and convert 100 MB, next to the same rows as CSV ──
if (runs("xlsx")) {
  const data = await xlsxData(100);
  const out = mkdtempSync(join(tmpdir(), "syncfile-bench-out-"));
  try {
    line();
    line(
      `Excel workbook, ${(data.bytes / 1e6).toFixed(0)} MB (${data.users.toLocaleString("en-US")} users, ${data.rows.toLocaleString("en-US")} rows, shared strings, date cells), and the same rows as CSV, ${(data.csvBytes / 1e6).toFixed(0)} MB`,
    );
    const [validate, validateCsv, convert, convertCsv, exceljs] = await alternate([
      () => measureNode(CLI, ["validate", data.path, "--format", "json"]),
      () => measureNode(CLI, ["validate", data.csvPath, "--format", "json"]),
      () => measureNode(CLI, ["convert", data.path, join(out, "from-xlsx.json"), "--format", "json"]),
      () => measureNode(CLI, ["convert", data.csvPath, join(out, "from-csv.json"), "--format", "json"]),
      () => measureNode(BASELINE_EXCELJS, [data.path]),
    ]);
    const peak = (r) => `(target peak RSS ≤ 250 MB: ${check(r.rss <= 250e6)})`;
    row("syncfile validate .xlsx", validate.seconds, data.bytes, validate.rss, peak(validate));
    row("syncfile validate, the same rows as CSV", validateCsv.seconds, data.csvBytes, validateCsv.rss);
    row("syncfile convert .xlsx → JSON (to a file)", convert.seconds, data.bytes, convert.rss, peak(convert));
    row("syncfile convert, the same rows as CSV", convertCsv.seconds, data.csvBytes, convertCsv.rss);
    row("exceljs's streaming read, rows only", exceljs.seconds, data.bytes, exceljs.rss);
    const ratio = (a, b) => (a.seconds / b.seconds).toFixed(2);
    line(
      `  validate .xlsx / CSV: ${ratio(validate, validateCsv)}× (target ≤ 2.0×: ${check(validate.seconds <= 2 * validateCsv.seconds)}); convert: ${ratio(convert, convertCsv)}× (${check(convert.seconds <= 2 * convertCsv.seconds)})`,
    );
    line(
      `  validate .xlsx / exceljs's read: ${ratio(validate, exceljs)}× (target ≤ 0.5×: ${check(validate.seconds <= 0.5 * exceljs.seconds)}); convert: ${ratio(convert, exceljs)}×`,
    );
    // the other CPU kept busy: the worker threads of both lose their second CPU
    const [busyXlsx, busyCsv] = await alternate([
      () => withBusyCpu(() => measureNode(CLI, ["validate", data.path, "--format", "json"])),
      () => withBusyCpu(() => measureNode(CLI, ["validate", data.csvPath, "--format", "json"])),
    ]);
    row("syncfile validate .xlsx, the other CPU busy", busyXlsx.seconds, data.bytes, busyXlsx.rss);
    row("syncfile validate CSV, the other CPU busy", busyCsv.seconds, data.csvBytes, busyCsv.rss);
    line(
      `  the other CPU busy, validate .xlsx / CSV: ${ratio(busyXlsx, busyCsv)}× (target ≤ 2.0×: ${check(busyXlsx.seconds <= 2 * busyCsv.seconds)})`,
    );
    const same = readFileSync(join(out, "from-xlsx.json")).equals(readFileSync(join(out, "from-csv.json")));
    line(`  the two JSON outputs are ${same ? "identical" : "DIFFERENT"}`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ── CSV → JSON, 1 GB: syncfile alone, for its peak RSS ──
if (runs("csv") && !process.env.BENCH_SKIP_1GB) {
  const out = mkdtempSync(join(tmpdir(), "syncfile-bench-out-"));
  try {
    // every CSV shape: rows of a user together, and every user on a row of their own (the most
    // users 1 GB holds, where what grows with the users shows)
    for (const { shape, data } of await generated(selectShapes(CSV_SHAPES, SHAPES), 1000)) {
      line();
      line(
        `CSV, ${shape.name}, ${(data.bytes / 1e6).toFixed(0)} MB (${data.users.toLocaleString("en-US")} users, ${data.rows.toLocaleString("en-US")} rows)`,
      );
      const ours = await measureNode(CLI, [
        "convert",
        data.path,
        join(out, "users.json"),
        "--format",
        "json",
        "--force",
      ]);
      if (ours.code !== 0) throw new Error(`convert failed (exit ${ours.code}): ${ours.stderr}`);
      row(
        "syncfile convert CSV → JSON (to a file)",
        ours.seconds,
        data.bytes,
        ours.rss,
        `(target peak RSS ≤ 300 MB: ${check(ours.rss <= 300e6)})`,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

// ── the server: the campaigns list under load, and a 200 MB sync ──
if (runs("server") && !process.env.BENCH_SKIP_SERVER) {
  const data = await jsonData(200);
  const server = await startServe(CLI, root);
  try {
    line();
    line("syncfile serve (its own process, PGlite in its data directory)");
    await loadCampaigns(server.url, { connections: 8, seconds: 2 }); // warm up
    const load = await loadCampaigns(server.url, { connections: 32, seconds: 10 });
    line(
      `  GET /v1.0/accessReviews/campaigns, 32 connections, 10 s: ${load.rps.toFixed(0)} req/s, p50 ${load.p50} ms, p99 ${load.p99} ms (${load.total} requests, ${load.failed} not 2xx)`,
    );
    const sync = await syncFile(server.url, server.pid, data.path);
    const s = sync.summary;
    line(
      `  sync of ${(data.bytes / 1e6).toFixed(0)} MB JSON (${s.users.toLocaleString("en-US")} users, ${s.licenseUsers.toLocaleString("en-US")} license users): ${sync.seconds.toFixed(1)} s, server peak RSS ${mb(sync.rss).trim()}`,
    );
    // the client side: syncfile push validates here, uploads (streamed) and syncs
    process.env.SYNCFILE_BASE_URL = server.url;
    process.env.SYNCFILE_API_KEY = KEYS[1];
    const push = await measureNode(CLI, ["push", data.path, "--app-account", "2"]);
    if (push.code !== 0) throw new Error(`syncfile push failed (exit ${push.code}): ${push.stderr}`);
    line(
      `  syncfile push of the same file (validate here, upload, sync): ${push.seconds.toFixed(1)} s, client peak RSS ${mb(push.rss).trim()}`,
    );
  } finally {
    await server.stop();
  }
}

// ── the server: an app account's users page by page, 4 M of them, on each backend ──
if (runs("pages") && !process.env.BENCH_SKIP_SERVER) {
  const users = Number(process.env.BENCH_USERS ?? 4_000_000);
  const postgres = postgresForBench();
  for (const backend of postgres.reachable ? ["embedded", "postgres"] : ["embedded"]) {
    line();
    line(
      `an app account of ${users.toLocaleString("en-US")} users (every fourth deleted), page by page, ${backend}`,
    );
    const database = backend === "postgres" ? postgres.create(`syncfile_bench_pages_${process.pid}`) : null;
    const filled = performance.now();
    const account = await accountOfUsers(CLI, root, users, database);
    line(`  (written into the database in ${((performance.now() - filled) / 1000).toFixed(0)} s)`);
    if (database) process.env.SYNCFILE_DATABASE_URL = database;
    const server = await startServe(CLI, root, account.dataDir);
    try {
      // the last page of 100: after the position before the last 100 shown users
      let position = users;
      for (let shown = 0; shown < 100; ) if (--position % 4 !== 3) shown++;
      const route = "/v1.0/appAccounts/1/users?limit=100";
      const first = await timeGets(server.url, route, 20);
      const last = await timeGets(server.url, `${route}&after=${account.syncId}-${position - 1}`, 20);
      if (last.body.users.length !== 100 || last.body.next !== null)
        throw new Error(
          `the last page is not the last 100 users: ${JSON.stringify(last.body).slice(0, 200)}`,
        );
      line(
        `  first page (limit=100):            median ${first.median.toFixed(1)} ms, slowest ${first.slowest.toFixed(1)} ms (20 GETs)`,
      );
      line(
        `  last page by cursor (after=…):     median ${last.median.toFixed(1)} ms, slowest ${last.slowest.toFixed(1)} ms (20 GETs; target ≤ 50 ms: ${check(last.median <= 50)})`,
      );
      // deeper offsets are refused (a 400 pointing at after): the deepest one answered
      const byOffset = await timeGets(server.url, `${route}&offset=100000`, 5);
      line(`  page at offset=100000 (the deepest): median ${byOffset.median.toFixed(1)} ms (5 GETs)`);
    } finally {
      await server.stop();
      delete process.env.SYNCFILE_DATABASE_URL;
      rmSync(account.dataDir, { recursive: true, force: true });
      if (database) postgres.drop(database);
    }
  }
}

// ── the server on each backend: the same sync, embedded (PGlite) and PostgreSQL (COPY), on the
// pretty-printed file and the compact license-heavy one, each next to psql's COPY of its rows ──
if (runs("postgres") && !process.env.BENCH_SKIP_SERVER) {
  const postgres = postgresForBench();
  if (postgres.reachable) {
    const megabytes = Number(process.env.BENCH_SYNC_MB ?? 1000);
    const shapes = selectShapes(
      JSON_SHAPES.filter((shape) => ["json-pretty", "json-license-heavy"].includes(shape.name)),
      process.env.BENCH_SHAPES,
    );
    const rounds = Number(process.env.BENCH_SYNC_ROUNDS ?? 1);
    for (const shape of shapes) await syncRows(postgres, shape, await shapeData(shape, megabytes), rounds);
  }
}

/**
 * The sync of `data` (a file of `shape`) on each backend, `rounds` times alternating, first into
 * a new account, then again into the same one; the floor, psql's COPY of the same rows; and the
 * slowest answer a probe saw meanwhile. Targets: PostgreSQL ≤ 1.6× the floor, embedded ≤ 3×, the
 * probe ≤ 1 s; peak RSS ≤ 300 MB (PostgreSQL), ≤ 500 MB (embedded).
 */
async function syncRows(postgres, shape, data, rounds) {
  line();
  line(
    `a sync of ${(data.bytes / 1e6).toFixed(0)} MB JSON, ${shape.title} (${data.users.toLocaleString("en-US")} users) on each backend (alternating, ${rounds} round${rounds > 1 ? "s" : ""})`,
  );
  const seconds = { embedded: { first: [], again: [] }, postgres: { first: [], again: [] } };
  const rss = { embedded: 0, postgres: 0 };
  const idle = { embedded: 0, postgres: 0 }; // the server's RSS before its first sync: its floor
  // the slowest answer a probe saw during each sync (/openapi.json, and an account's state)
  const probed = { embedded: { first: 0, again: 0 }, postgres: { first: 0, again: 0 } };
  const floors = []; // psql's COPY of the first sync's rows, each round
  for (let round = 0; round < rounds; round++) {
    for (const backend of ["postgres", "embedded"]) {
      const database = backend === "postgres" ? `syncfile_bench_${process.pid}_${round}` : null;
      await serving(postgres, database, async (server, databaseUrl) => {
        // the probe asks for an account the sync does not touch: what it waits for is the sync;
        // the second sync replaces the first's rows (their delete is what froze the embedded one)
        for (const pass of ["first", "again"]) {
          const { result: sync, probe } = await probeDuring(server.url, 999, () =>
            syncFile(server.url, server.pid, data.path),
          );
          const slowest = Math.max(...Object.values(probe).map((p) => p.slowest));
          probed[backend][pass] = Math.max(probed[backend][pass], slowest);
          seconds[backend][pass].push(sync.seconds);
          rss[backend] = Math.max(rss[backend], sync.rss);
          if (pass === "first") idle[backend] = Math.max(idle[backend], sync.before);
          if (databaseUrl && pass === "first") floors.push(await copyFloor(databaseUrl, sync.summary.idSync));
        }
      });
    }
  }
  const floor = median(floors);
  const targets = { postgres: { times: 1.6, rss: 300e6 }, embedded: { times: 3, rss: 500e6 } };
  line(
    `  ${"floor".padEnd(9)} psql's COPY of the same rows from files, a table a connection at once, into copies of the tables with their indexes: ${floor.toFixed(1)} s`,
  );
  for (const backend of ["postgres", "embedded"]) {
    const s = median(seconds[backend].first);
    const again = median(seconds[backend].again);
    const slowest = Math.max(probed[backend].first, probed[backend].again);
    const target = targets[backend];
    line(
      `  ${backend.padEnd(9)} ${s.toFixed(1)} s (median), ${(s / floor).toFixed(2)}× the floor; again into the same account ${again.toFixed(1)} s; server peak RSS ${mb(rss[backend]).trim()} (${mb(idle[backend]).trim()} before the first sync) (target ≤ ${target.times}× the floor and ≤ ${mb(target.rss).trim()}: ${check(s <= target.times * floor && rss[backend] <= target.rss)})`,
    );
    line(
      `  ${"".padEnd(9)} slowest probe answer during the first sync ${probed[backend].first.toFixed(0)} ms, during the second ${probed[backend].again.toFixed(0)} ms (target ≤ 1000 ms: ${check(slowest <= 1000)})`,
    );
  }
}

// ── a job's sql source: a query's rows to the file a push sends, against psql's \copy + convert ──
if (runs("sources")) {
  const postgres = postgresForBench();
  if (postgres.reachable) {
    const users = Number(process.env.BENCH_SOURCE_USERS ?? 1_000_000);
    const database = postgres.create(`syncfile_bench_source_${process.pid}`);
    const dir = mkdtempSync(join(tmpdir(), "syncfile-bench-source-"));
    try {
      execFileSync("psql", [
        database,
        "-q",
        "-c",
        `CREATE TABLE people AS SELECT n AS id, 'user' || n || '@example.com' AS email, 'First' || n AS first_name, 'Last' || n AS last_name, n % 9 <> 0 AS active, timestamptz '2026-01-01' + n * interval '1 second' AS last_login FROM generate_series(1, ${users}) AS n`,
      ]);
      const query = `SELECT email, first_name AS "firstName", last_name AS "lastName", active, last_login AS "lastUsedDate" FROM people ORDER BY id`;
      writeFileSync(
        join(dir, "people.job.yaml"),
        `jobs:\n  - name: people\n    source: { sql: { url: "${database}", query: '${query}' } }\n    service: { url: "http://127.0.0.1:9", apiKey: bench, appAccount: 1 }\n`,
      );
      // the same reading for the pair: the mapping pull makes of these columns
      writeFileSync(
        join(dir, "records.mapping.json"),
        JSON.stringify({
          name: "records",
          email: "email",
          firstName: "firstName",
          lastName: "lastName",
          lastUsedDate: "lastUsedDate",
          status: {
            column: "active",
            values: {
              t: { status: "active", externalStatus: "active" },
              f: { status: "deleted", externalStatus: "inactive" },
            },
          },
        }),
      );
      line();
      line(
        `a job's sql source: ${users.toLocaleString("en-US")} users from PostgreSQL to the JSON a push sends`,
      );
      const copyThenConvert = async () => {
        const copy = await measureProgram("psql", [
          database,
          "-q",
          "-c",
          `\\copy (${query}) TO '${join(dir, "rows.csv")}' WITH (FORMAT csv, HEADER)`,
        ]);
        const convert = await measureNode(CLI, [
          "convert",
          join(dir, "rows.csv"),
          join(dir, "pair.json"),
          "--mapping",
          join(dir, "records.mapping.json"),
          "--force",
        ]);
        rmSync(join(dir, "rows.csv"), { force: true });
        return {
          code: convert.code,
          stderr: convert.stderr,
          seconds: copy.seconds + convert.seconds,
          rss: Math.max(copy.rss ?? 0, convert.rss ?? 0),
        };
      };
      const [pull, pair] = await alternate([
        () => measureNode(CLI, ["pull", join(dir, "people.job.yaml"), "-o", join(dir, "pulled.json")]),
        copyThenConvert,
      ]);
      const bytes = statSync(join(dir, "pulled.json")).size; // MB/s: of the JSON written
      row(
        "syncfile pull (sql source → JSON)",
        pull.seconds,
        bytes,
        pull.rss,
        `(${(pull.seconds / pair.seconds).toFixed(2)}× the pair; target ≤ 1.2×: ${check(pull.seconds <= 1.2 * pair.seconds)})`,
      );
      row("baseline: psql \\copy … TO, then syncfile convert", pair.seconds, bytes, pair.rss);
      const same = readFileSync(join(dir, "pulled.json")).equals(readFileSync(join(dir, "pair.json")));
      line(`  the two JSON outputs are ${same ? "identical" : "DIFFERENT"}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      postgres.drop(database);
    }
  }
}

// ── scaling: validate, convert and a sync at 0.1, 1 and 4 GB, of the pretty-printed and the
// license-heavy shape (only when named: it takes long) ──
if (ONLY?.includes("scaling")) {
  const sizes = (process.env.BENCH_SCALE_MB ?? "100,1000,4000").split(",").map(Number);
  const shapes = selectShapes(
    JSON_SHAPES.filter((shape) => ["json-pretty", "json-license-heavy"].includes(shape.name)),
    process.env.BENCH_SHAPES,
  );
  const postgres = postgresForBench();
  const out = mkdtempSync(join(tmpdir(), "syncfile-bench-out-"));
  line();
  line(
    `scaling: JSON files of ${sizes.map((m) => `${m} MB`).join(", ")}, ${shapes.map((s) => s.name).join(" and ")}, once each; a first sync on ${postgres.reachable ? "PostgreSQL" : "the embedded backend"}`,
  );
  line(
    `  ${"file".padEnd(46)} ${"validate".padEnd(30)} ${"convert → CSV".padEnd(30)} ${"sync (server peak)".padEnd(30)}`,
  );
  const cell = (seconds, bytes, rss) =>
    `${seconds.toFixed(1).padStart(6)} s ${rate(bytes, seconds)} MB/s ${mb(rss)}`.padEnd(30);
  try {
    for (const [shape, megabytes] of shapes.flatMap((s) => sizes.map((m) => [s, m]))) {
      const data = await shapeData(shape, megabytes);
      const validate = await measureNode(CLI, ["validate", data.path]);
      const convert = await measureNode(CLI, ["convert", data.path, join(out, "scaled.csv"), "--force"]);
      rmSync(join(out, "scaled.csv"), { force: true });
      for (const r of [validate, convert]) {
        if (r.code !== 0) throw new Error(`benchmark run failed (exit ${r.code}): ${r.stderr}`);
      }
      const database = postgres.reachable ? `syncfile_bench_scale_${process.pid}` : null;
      const sync = await serving(postgres, database, (server) => syncFile(server.url, server.pid, data.path));
      line(
        `  ${`${shape.name}, ${(data.bytes / 1e6).toFixed(0)} MB, ${(data.users / 1e6).toFixed(2)} M users`.padEnd(46)} ${cell(validate.seconds, data.bytes, validate.rss)} ${cell(convert.seconds, data.bytes, convert.rss)} ${cell(sync.seconds, data.bytes, sync.rss)}`,
      );
    }
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * `work(server, databaseUrl)` against a `syncfile serve` of its own: on a new database named
 * `database` of `postgres` (made here, and dropped after), or embedded when `database` is null.
 */
async function serving(postgres, database, work) {
  const url = database ? postgres.create(database) : null;
  if (url) process.env.SYNCFILE_DATABASE_URL = url;
  else delete process.env.SYNCFILE_DATABASE_URL;
  try {
    const server = await startServe(CLI, root);
    try {
      return await work(server, url);
    } finally {
      await server.stop();
    }
  } finally {
    delete process.env.SYNCFILE_DATABASE_URL;
    if (url) postgres.drop(url);
  }
}

/**
 * The floor of a sync on PostgreSQL: the rows sync `syncId` loaded into `database`, written to
 * files, then COPY'd by psql from those files into copies of the account tables (their indexes
 * too), each table on its own connection at once, as the sync loads them; resolves to the
 * seconds that took. The copies and the files are removed.
 */
async function copyFloor(database, syncId) {
  const dir = mkdtempSync(join(tmpdir(), "syncfile-bench-floor-"));
  const tables = ["account_users", "account_licenses", "account_license_users"];
  const psql = (sql) =>
    execFileSync("psql", [database, "-q", "-c", sql], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    for (const table of tables) {
      psql(`\\copy (SELECT * FROM ${table} WHERE sync_id = ${syncId}) TO '${join(dir, table)}'`);
      psql(`CREATE TABLE floor_${table} (LIKE ${table} INCLUDING ALL)`);
    }
    const started = process.hrtime.bigint();
    const copies = await Promise.all(
      tables.map((table) =>
        measureProgram("psql", [database, "-q", "-c", `\\copy floor_${table} FROM '${join(dir, table)}'`]),
      ),
    );
    const failed = copies.find((copy) => copy.code !== 0);
    if (failed) throw new Error(`psql's COPY failed (exit ${failed.code}): ${failed.stderr}`);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    for (const table of tables) psql(`DROP TABLE IF EXISTS floor_${table}`);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The PostgreSQL server of the bench (BENCH_POSTGRES_URL, default the local one), through psql:
 * whether it answers (said once when not), and databases made and dropped on it.
 */
function postgresForBench() {
  const admin = new URL(process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
  const psql = (sql) =>
    execFileSync("psql", [admin.href, "-c", sql], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    psql("SELECT 1");
  } catch {
    if (!postgresForBench.said) {
      postgresForBench.said = true;
      line();
      line(`(the PostgreSQL parts are skipped: nothing answers at ${admin.href}, or psql is missing)`);
    }
    return { reachable: false };
  }
  return {
    reachable: true,
    create(name) {
      psql(`CREATE DATABASE ${name}`);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return url.href;
    },
    drop(url) {
      psql(`DROP DATABASE ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    },
  };
}
