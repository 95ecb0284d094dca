// Convert = validate + write: one pass reads the input, checks every record and hands it
// (normalised when asked) to a writer. The output goes to a temporary file that takes the
// output's name only when the input is valid or writing is forced, so a half-written or
// refused output never exists under that name.

import { closeSync, createReadStream, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ByteSource } from "../bytes/byteSource.js";
import { fileBytes } from "../bytes/fileBytes.js";
import { replaceFile } from "../bytes/replaceFile.js";
import { removeAtExit } from "../bytes/temporaryFiles.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import { PriceConverter } from "../model/money.js";
import type { NormalizedValues } from "../model/normalize.js";
import {
  type InputFormat,
  type NormalizedValidateOptions,
  normalizeValidateOptions,
} from "../pass/options.js";
import { fileSource, type PassSource, runPass, streamSource } from "../pass/runPass.js";
import type { Report } from "../report/Report.js";
import { DocumentOutput, routerFor } from "./DocumentOutput.js";
import { type ConvertOptions, outputFormat, type PipeOptions, priceConverter } from "./options.js";
import { NormalizingRouter, type RecordRouter } from "./RecordRouter.js";

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
  return pipeSource(streamSource(source), writer, options);
}

/** pipeDocument over a pass's source (a file's, whose size decides "auto"). */
async function pipeSource(source: PassSource, writer: DocumentWriter, options: PipeOptions): Promise<Report> {
  return pass(source, normalizeValidateOptions(options), routerFor(writer, priceConverter(options)));
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
  return pass(
    streamSource(source),
    normalized,
    new NormalizingRouter(writer, new PriceConverter(normalizing)),
  );
}

/**
 * normalize for a file: its format by its name unless given, read on a worker thread when it is
 * large (as a file's validation is).
 */
export async function normalizeFile(
  path: string,
  writer: DocumentWriter<NormalizedValues>,
  options: Omit<PipeOptions, "normalize"> = {},
): Promise<Report> {
  const normalizing = { file: path, ...options, normalize: true };
  const source = await fileSource(path);
  try {
    return await pass(
      source,
      normalizeValidateOptions(normalizing),
      new NormalizingRouter(writer, new PriceConverter(normalizing)),
    );
  } finally {
    await source.close(); // the pass closes it; not when it failed before it
  }
}

/** One pass over `source`, its records handed to `router`. */
async function pass(
  source: PassSource,
  normalized: NormalizedValidateOptions,
  router: RecordRouter,
): Promise<Report> {
  try {
    const { report } = await runPass(source, normalized, {
      tap: (record) => router.record(record),
      licenseUserItems: router.licenseUserItems,
    });
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
  const source = await fileSource(input);
  try {
    return await convertSource(source, output, { file: input, ...options });
  } finally {
    await source.close(); // the pass closes it; not when the conversion failed before it
  }
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
  return convertSource(streamSource(source), destination, options);
}

async function convertSource(
  source: PassSource,
  destination: string | NodeJS.WritableStream,
  options: ConvertOptions,
): Promise<Report> {
  const from = normalizeValidateOptions(options).format;
  const outputName = typeof destination === "string" ? destination : null;
  const to = outputFormat(options.to, outputName, from);
  const prices = priceConverter(options); // bad money options fail before anything is read or written
  const written = (report: Report) => report.valid || options.force === true;
  const write = (path: string) => writeDocument(source, path, to, { ...options, format: from }, prices);
  let result: WrittenDocument;
  if (typeof destination === "string") {
    result = await replaceFile(destination, write, { when: (r) => written(r.report) });
  } else {
    // a stream gets the output only at the end, once the input is known to be valid: until then
    // it waits in a private temporary folder (there is no destination to put it beside)
    const dir = mkdtempSync(join(tmpdir(), "syncfile-convert-"));
    const kept = removeAtExit(dir);
    const path = join(dir, "output");
    try {
      result = await write(path);
      if (written(result.report)) await copyInto(path, destination);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      kept();
    }
  }
  const { report, output } = result;
  report.output = output.describe(outputName, written(report));
  return report;
}

/**
 * Writes the file at `path` into `stream`, a chunk at a time; a failure to write rejects, be it
 * thrown by the write itself (standard output on a full disk writes synchronously) or told to
 * its callback. The stream is left open.
 */
async function copyInto(path: string, stream: NodeJS.WritableStream): Promise<void> {
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 16 })) {
    await new Promise<void>((resolve, reject) => {
      try {
        stream.write(chunk as Uint8Array, (error) => (error ? reject(error) : resolve()));
      } catch (error) {
        reject(error);
      }
    });
  }
}

/** What writing a document gave: the report of its input, and the output written. */
interface WrittenDocument {
  report: Report;
  output: DocumentOutput;
}

/** Writes `source` converted to `to` into the new file `path`, record by record as it is read. */
async function writeDocument(
  source: PassSource,
  path: string,
  to: InputFormat,
  options: ConvertOptions,
  prices: PriceConverter | null,
): Promise<WrittenDocument> {
  const fd = openSync(path, "wx");
  try {
    const output = new DocumentOutput(to, fileBytes(fd, undefined, path), options, prices);
    return { report: await pass(source, normalizeValidateOptions(options), output.router), output };
  } finally {
    closeSync(fd);
  }
}
