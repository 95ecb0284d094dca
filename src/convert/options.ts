// Options of a conversion, and what is decided from them before anything is read: the output
// format and the price converter (bad money options fail then, not halfway through the file).

import { type MoneyOptions, PriceConverter } from "../model/money.js";
import { formatOf, INPUT_FORMATS, type InputFormat, type ValidateOptions } from "../pass/options.js";

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

/** The output format: as given, else by the output's extension, else the other one than the input's. */
export function outputFormat(to: unknown, output: string | null, from: InputFormat): InputFormat {
  if (to !== undefined) {
    if (!INPUT_FORMATS.includes(to as InputFormat)) {
      throw new RangeError(`to must be "json", "csv" or "xlsx", got ${String(to)}`);
    }
    return to as InputFormat;
  }
  if (output && /\.(json|csv|xlsx)$/i.test(output)) return formatOf(output);
  return from === "json" ? "csv" : "json";
}

/** The converter of prices when normalising, else null; a RangeError for money options without it. */
export function priceConverter(options: PipeOptions): PriceConverter | null {
  if (!options.normalize) {
    if (options.displayCurrency || options.sourceCurrency || options.rates) {
      throw new RangeError("currencies and rates apply only when normalising: add normalize (--normalize)");
    }
    return null;
  }
  return new PriceConverter(options);
}
