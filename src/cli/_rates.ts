// A rates file for --rates: {"EUR": "0.92", …}, or {"base": "USD", "rates": {…}}.

import { readFileSync } from "node:fs";
import type { RateTable } from "syncfile/internal/model/money.js";
import { describeIoError } from "./_io.js";
import { UsageError } from "./UsageError.js";

/** A rates file: {"EUR": "0.92", …}, or {"base": "USD", "rates": {…}} as exchange-rate services give it. */
export function readRates(file: string, source: string): RateTable {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    const why = error instanceof SyntaxError ? `it is not JSON (${error.message})` : describeIoError(error);
    throw new UsageError(`cannot read the rates file ${file}: ${why}`);
  }
  const object = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  const table = object(parsed) && object(parsed.rates) ? parsed.rates : parsed;
  if (
    object(parsed) &&
    typeof parsed.base === "string" &&
    parsed.base.toUpperCase() !== source.toUpperCase()
  ) {
    throw new UsageError(
      `the rates in ${file} are from ${parsed.base}, but prices are read as ${source.toUpperCase()}: give rates from ${source.toUpperCase()}, or --source-currency ${parsed.base}`,
    );
  }
  if (!object(table) || !Object.values(table).every((r) => typeof r === "string" || typeof r === "number")) {
    throw new UsageError(`the rates file ${file} must map currency codes to rates, such as {"EUR": "0.92"}`);
  }
  return table as RateTable;
}
