// A conversion's output without its destination: the writer of the output format over a sink of
// bytes, the router that hands it each record (normalised when asked), and what the report then
// says of the output. convertFile (into a file) and Conversion (into any sink: a browser's) both
// write through it, so they write the same bytes.

import type { BytesOut } from "../bytes/TextOut.js";
import { CsvWriter } from "../csv/CsvWriter.js";
import { JsonWriter } from "../json/JsonWriter.js";
import type { DocumentWriter } from "../model/DocumentWriter.js";
import type { PriceConverter } from "../model/money.js";
import type { InputFormat } from "../pass/options.js";
import type { ReportOutput } from "../report/Report.js";
import { XlsxWriter } from "../xlsx/XlsxWriter.js";
import type { ConvertOptions } from "./options.js";
import { AsReadRouter, NormalizingRouter, type RecordRouter } from "./RecordRouter.js";

/** The router of a pass into `writer`: normalising with `prices`, else as read. */
export function routerFor(writer: DocumentWriter, prices: PriceConverter | null): RecordRouter {
  return prices ? new NormalizingRouter(writer, prices) : new AsReadRouter(writer);
}

/** The writer of format `to` over `out`, and the router that feeds it. */
export class DocumentOutput {
  /** Hands the pass's records to the writer: `end()` after the last, `dispose()` always. */
  readonly router: RecordRouter;
  readonly #format: InputFormat;
  readonly #writer: JsonWriter | CsvWriter | XlsxWriter;
  readonly #normalized: boolean;
  readonly #currency: string | null;

  /** `prices`: priceConverter(options), made before anything is read. */
  constructor(to: InputFormat, out: BytesOut, options: ConvertOptions, prices: PriceConverter | null) {
    const rows = { escapeFormulas: options.escapeFormulas ?? true };
    this.#format = to;
    this.#writer =
      to === "json"
        ? new JsonWriter(out)
        : to === "xlsx"
          ? new XlsxWriter((chunk) => out.bytes(chunk), rows)
          : new CsvWriter(out, rows);
    this.router = routerFor(this.#writer, prices);
    this.#normalized = options.normalize === true;
    this.#currency = prices ? prices.display.code : null;
  }

  /** What the report says of this output, written into `file` (null: a stream, or no file). */
  describe(file: string | null, written: boolean): ReportOutput {
    return {
      file,
      format: this.#format,
      written,
      normalized: this.#normalized,
      ...(this.#currency !== null ? { currency: this.#currency } : {}),
      formulasEscaped: this.#writer instanceof JsonWriter ? 0 : this.#writer.formulasEscaped,
    };
  }
}
