// Prices in cents converted into the organisation's display currency with dinero.js — exact
// integers throughout (its bigint calculator), rates given as decimal text, never floats.

import { convert, dinero, halfAwayFromZero, toSnapshot, transformScale } from "dinero.js/bigint";
import * as currencies from "dinero.js/bigint/currencies";

type Currency = (typeof currencies)["USD"];

/** Rates from the source currency: code → units of that currency for one unit of the source ("0.9215"). */
export type RateTable = Readonly<Record<string, string | number>>;

/** How prices are read and shown. */
export interface MoneyOptions {
  /** The currency the file's cents are in. Default USD. */
  sourceCurrency?: string;
  /** The organisation's display currency. Default: the source currency. */
  displayCurrency?: string;
  /** Needed when the two differ: the rate to the display currency. */
  rates?: RateTable;
}

/** The ISO 4217 currency of `code`, or a RangeError naming it. */
export function currencyOf(code: string): Currency {
  const currency = (currencies as Record<string, Currency | undefined>)[code.toUpperCase()];
  if (!currency)
    throw new RangeError(`unknown currency "${code}": use an ISO 4217 code such as USD, EUR or JPY`);
  return currency;
}

/** A decimal rate ("0.9215", 150.12) as a scaled integer, without float arithmetic. */
export function parseRate(code: string, rate: string | number): { amount: bigint; scale: bigint } {
  const text = typeof rate === "number" ? String(rate) : rate.trim();
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m || /^0+(\.0+)?$/.test(text)) {
    throw new RangeError(
      `the rate for ${code} must be a positive decimal number such as "0.9215", got ${JSON.stringify(rate)}`,
    );
  }
  const decimals = m[2] ?? "";
  return { amount: BigInt(`${m[1]}${decimals}`), scale: BigInt(decimals.length) };
}

/**
 * Converts prices from cents of the source currency to minor units of the display currency:
 * the cents become a Dinero at scale 2, converted with the rate when the currencies differ,
 * then rounded to the display currency's exponent (JPY 0, USD 2, BHD 3), half away from zero.
 */
export class PriceConverter {
  readonly source: Currency;
  readonly display: Currency;
  readonly #rate: { amount: bigint; scale: bigint } | null;

  constructor(options: MoneyOptions = {}) {
    this.source = currencyOf(options.sourceCurrency ?? "USD");
    this.display = options.displayCurrency ? currencyOf(options.displayCurrency) : this.source;
    if (this.display.code === this.source.code) {
      this.#rate = null;
      return;
    }
    const rate = options.rates?.[this.display.code];
    if (rate === undefined) {
      throw new RangeError(
        `no rate from ${this.source.code} to ${this.display.code}: give one, e.g. {"${this.display.code}": "0.92"}`,
      );
    }
    this.#rate = parseRate(this.display.code, rate);
  }

  /** The price in minor units of the display currency (an integer). */
  convert(cents: number): number {
    if (!Number.isSafeInteger(cents) || cents < 0)
      throw new RangeError(`a price must be whole, non-negative cents, got ${cents}`);
    let amount = dinero({ amount: BigInt(cents), currency: this.source, scale: 2n });
    if (this.#rate) amount = convert(amount, this.display, { [this.display.code]: this.#rate });
    const shown = toSnapshot(transformScale(amount, this.display.exponent, halfAwayFromZero)).amount;
    if (shown > BigInt(Number.MAX_SAFE_INTEGER))
      throw new RangeError(`the converted price ${shown} is too large`);
    return Number(shown);
  }
}
