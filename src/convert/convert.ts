// Convert = validate + write: one pass reads the input, checks every record and hands it
// (normalised when asked) to a writer. The output goes to a temporary file that takes the
// output's name only when the input is valid or writing is forced, so a half-written or
// refused output never exists under that name.

import { closeSync, createReadStream, mkdtempSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { CsvWriter } from "../csv/CsvWriter.js";
import { JsonWriter } from "../json/JsonWriter.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { type MoneyOptions, PriceConverter } from "../model/money.js";
import type { NormalizedValues } from "../model/normalize.js";
import type { Report } from "../report/Report.js";
import { readChunks } from "../validate/_readChunks.js";
import { runPass } from "../validate/_runPass.js";
import {
  formatOf,
  type InputFormat,
  type NormalizedValidateOptions,
  normalizeValidateOptions,
  type ValidateOptions,
} from "../validate/options.js";
import { asBytes, type ByteSource, READ_CHUNK, useParallel } from "../validate/validate.js";
import { AsReadRouter, NormalizingRouter, type RecordRouter } from "./RecordRouter.js";

/** Options of a pass that hands the records to a writer. */
export interface PipeOptions extends ValidateOptions, MoneyOptions {
  /** Hand over the sync-ready form of each record (statuses derived, prices converted). Default false. */
  normalize?: boolean;
}

/** Options of a conversion. */
export interface ConvertOptions extends PipeOptions {
  /** The output format. Default: by the output's extension, else the other format than the input's. */
  to?: InputFormat;
  /** Write even when the input has errors. Default false: nothing is written then. */
  force?: boolean;
  /** Escape CSV cells a spreadsheet would run as formulas. Default true. */
  escapeFormulas?: boolean;
}

/**
 * Validates `source` and hands each record to `writer` as it is read (normalised with
 * `normalize`); the writer's `end()` comes after the last. Returns the report: the caller
 * decides what to do with what was written when the report says invalid. Bad options throw
 * a RangeError (unknown currency, a missing rate). The writer takes values as read: whether
 * they are normalised is an option (`normalize` takes a writer of normalised values).
 */
export async function pipeDocument(
  source: ByteSource,
  writer: DocumentWriter,
  options: PipeOptions = {},
): Promise<Report> {
  const normalized = normalizeValidateOptions(options);
  const prices = priceConverter(options);
  return pass(source, normalized, prices ? new NormalizingRouter(writer, prices) : new AsReadRouter(writer));
}

/**
 * Validates `source` and hands the sync-ready form of each record to `writer`: license
 * statuses derived, prices in the display currency, dates as YYYY-MM-DD (pipeDocument with
 * `normalize: true`). What the server applies when it syncs.
 */
export async function normalize(
  source: ByteSource,
  writer: DocumentWriter<NormalizedValues>,
  options: Omit<PipeOptions, "normalize"> = {},
): Promise<Report> {
  const normalizing = { ...options, normalize: true };
  const normalized = normalizeValidateOptions(normalizing);
  return pass(source, normalized, new NormalizingRouter(writer, new PriceConverter(normalizing)));
}

/** One pass over `source`, its records handed to `router`. */
async function pass(
  source: ByteSource,
  normalized: NormalizedValidateOptions,
  router: RecordRouter,
): Promise<Report> {
  try {
    const report = await runPass(
      asBytes(source),
      normalized,
      (record) => router.record(record),
      normalized.parallel === true,
    );
    router.end();
    return report;
  } finally {
    router.dispose();
  }
}

/**
 * Converts the data file at `input` into `output` (a path, or a writable stream such as standard
 * output), as JSON or CSV. The output is written only when the input is valid, or with `force`;
 * the report says which (`report.output.written`).
 */
export async function convertFile(
  input: string,
  output: string | NodeJS.WritableStream,
  options: ConvertOptions = {},
): Promise<Report> {
  const parallel = await useParallel(input, options.parallel ?? "auto");
  return convertStream(readChunks(input, READ_CHUNK), output, { file: input, ...options, parallel });
}

/**
 * Converts what `source` yields into `destination`: a path, or a writable stream (standard
 * output) that receives the whole output at the end, once the input is known to be valid.
 */
export async function convertStream(
  source: ByteSource,
  destination: string | NodeJS.WritableStream,
  options: ConvertOptions = {},
): Promise<Report> {
  const from = normalizeValidateOptions(options).format;
  const outputName = typeof destination === "string" ? destination : null;
  const to = outputFormat(options.to, outputName, from);
  const prices = priceConverter(options); // bad money options fail before anything is read or written
  const temp = temporaryFile(outputName);
  const fd = openSync(temp.path, "w");
  let report: Report;
  let formulasEscaped = () => 0;
  try {
    const out = (text: string) => writeSync(fd, text);
    let writer: DocumentWriter;
    if (to === "csv") {
      const csv = new CsvWriter(out, { escapeFormulas: options.escapeFormulas ?? true });
      formulasEscaped = () => csv.formulasEscaped;
      writer = csv;
    } else writer = new JsonWriter(out);
    report = await pipeDocument(source, writer, { ...options, format: from });
  } catch (error) {
    closeSync(fd);
    temp.remove();
    throw error;
  }
  closeSync(fd);
  const written = report.valid || options.force === true;
  try {
    if (written && typeof destination === "string") renameSync(temp.path, destination);
    else if (written)
      await pipeline(createReadStream(temp.path), destination as NodeJS.WritableStream, { end: false });
  } finally {
    temp.remove();
  }
  report.output = {
    file: outputName,
    format: to,
    written,
    normalized: options.normalize === true,
    ...(prices ? { currency: prices.display.code } : {}),
    formulasEscaped: formulasEscaped(),
  };
  return report;
}

/** The output format: as given, else by the output's extension, else the other one than the input's. */
export function outputFormat(to: unknown, output: string | null, from: InputFormat): InputFormat {
  if (to !== undefined) {
    if (to !== "json" && to !== "csv") throw new RangeError(`to must be "json" or "csv", got ${String(to)}`);
    return to;
  }
  if (output && /\.(json|csv)$/i.test(output)) return formatOf(output);
  return from === "csv" ? "json" : "csv";
}

function priceConverter(options: PipeOptions): PriceConverter | null {
  if (!options.normalize) {
    if (options.displayCurrency || options.sourceCurrency || options.rates) {
      throw new RangeError("currencies and rates apply only when normalising: add normalize (--normalize)");
    }
    return null;
  }
  return new PriceConverter(options);
}

/** A temporary file beside `output` (so that renaming it is atomic), or in the temp folder. */
function temporaryFile(output: string | null): { path: string; remove(): void } {
  if (output !== null) {
    const path = join(dirname(output), `.${basename(output)}.${process.pid}-${Date.now().toString(36)}.tmp`);
    return { path, remove: () => rmSync(path, { force: true }) };
  }
  const dir = mkdtempSync(join(tmpdir(), "syncfile-convert-"));
  return { path: join(dir, "output"), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
