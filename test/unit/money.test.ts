// Prices: cents of the source currency to minor units of the display currency, with dinero.js
// and integers only; rounded half away from zero to the display currency's exponent.

import { describe, expect, it } from "vitest";
import { currencyOf, PriceConverter } from "../../src/index.js";

describe("PriceConverter", () => {
  it("shows USD cents in USD as they are", () => {
    const usd = new PriceConverter();
    expect([0, 1, 1250, 999_999_999].map((c) => usd.convert(c))).toEqual([0, 1, 1250, 999_999_999]);
  });

  it("converts USD to EUR with a rate, to whole cents", () => {
    const eur = new PriceConverter({ displayCurrency: "EUR", rates: { EUR: "0.9215" } });
    expect(eur.convert(1250)).toBe(1152); // 12.50 × 0.9215 = 11.51875 → 11.52
    expect(eur.convert(100)).toBe(92); // 0.9215 → 0.92
  });

  it("converts to JPY, which has no minor unit", () => {
    const jpy = new PriceConverter({ displayCurrency: "JPY", rates: { JPY: "151.37" } });
    expect(jpy.convert(1250)).toBe(1892); // 12.50 × 151.37 = 1892.125 → ¥1892
    expect(jpy.convert(99)).toBe(150); // 0.99 × 151.37 = 149.8563 → ¥150
  });

  it("converts to a 3-decimal currency (BHD) in fils", () => {
    const bhd = new PriceConverter({ displayCurrency: "BHD", rates: { BHD: "0.376" } });
    expect(currencyOf("bhd").exponent).toBe(3n);
    expect(bhd.convert(1250)).toBe(4700); // 12.50 × 0.376 = 4.700 BHD
    expect(bhd.convert(1)).toBe(4); // 0.01 × 0.376 = 0.00376 → 0.004
  });

  it("rounds half away from zero (not to even)", () => {
    const half = new PriceConverter({ displayCurrency: "EUR", rates: { EUR: "0.5" } });
    expect([1, 3, 5].map((c) => half.convert(c))).toEqual([1, 2, 3]); // 0.5, 1.5, 2.5 cents
    const jpy = new PriceConverter({ displayCurrency: "JPY", rates: { JPY: "1" } });
    expect([150, 250, 249].map((c) => jpy.convert(c))).toEqual([2, 3, 2]); // ¥1.5, ¥2.5, ¥2.49
  });

  it("never goes through floats: large amounts and long rates are exact", () => {
    const eur = new PriceConverter({ displayCurrency: "EUR", rates: { EUR: "0.123456789" } });
    const cents = 9_007_199_254_740_991;
    const exact = (BigInt(cents) * 123456789n * 2n + 1_000_000_000n) / 2_000_000_000n; // half up, positive
    expect(eur.convert(cents)).toBe(Number(exact));
    const usd = new PriceConverter();
    expect(usd.convert(cents)).toBe(cents);
  });

  it("reads the source currency's cents at scale 2 whatever the source (JPY source: hundredths of a yen)", () => {
    const fromJpy = new PriceConverter({ sourceCurrency: "JPY" });
    expect(fromJpy.display.code).toBe("JPY");
    expect(fromJpy.convert(1250)).toBe(13); // ¥12.50 → ¥13
  });

  it("rejects unknown currencies, missing or bad rates, and bad amounts with a message that says how to fix it", () => {
    expect(() => new PriceConverter({ displayCurrency: "XYZ" })).toThrow(
      /unknown currency "XYZ": use an ISO 4217 code/,
    );
    expect(() => new PriceConverter({ displayCurrency: "EUR" })).toThrow(/no rate from USD to EUR: give one/);
    for (const rate of ["0", "-1", "1e3", "abc", "0.00"]) {
      expect(() => new PriceConverter({ displayCurrency: "EUR", rates: { EUR: rate } })).toThrow(
        /positive decimal number/,
      );
    }
    const usd = new PriceConverter();
    for (const bad of [-1, 1.5, Number.NaN])
      expect(() => usd.convert(bad)).toThrow(/whole, non-negative cents/);
  });
});
