// The keyed fingerprint (issue 48, item 3): HalfSipHash-2-4's 64-bit output under this run's
// own key, which a thread whose fingerprints are compared with these (a diff's other side) uses
// too.

import { describe, expect, it } from "vitest";
import {
  fingerprint,
  fingerprintKey,
  lastFingerprint,
  useFingerprintKey,
} from "../../src/spill/fingerprint.js";

const fp = (s: string, fold = true): [number, number] => {
  fingerprint(s, fold);
  return [lastFingerprint.h1, lastFingerprint.h2];
};

describe("the keyed fingerprint", () => {
  it("is HalfSipHash-2-4's 64-bit output over the UTF-16LE code units (the reference's vectors)", () => {
    const key = fingerprintKey();
    try {
      useFingerprintKey([0x03020100, 0x07060504]);
      // vectors_hsip64 of the reference (veorq/SipHash): input bytes 0, 1, … n - 1, here n even
      const vectors: [number, string][] = [
        [0, "218d1f59b9b83cc8"],
        [2, "064f39ef7c50eb57"],
        [4, "d5e78a175be52ea1"],
        [6, "ce3e91358aa2bc25"],
        [62, "f90b3ab572d46693"],
      ];
      for (const [n, hex] of vectors) {
        let s = "";
        for (let i = 0; i < n; i += 2) s += String.fromCharCode(i | ((i + 1) << 8));
        const [h1, h2] = fp(s, false);
        const bytes = new Uint8Array(new Int32Array([h1, h2]).buffer);
        expect(Buffer.from(bytes).toString("hex")).toBe(hex);
      }
    } finally {
      useFingerprintKey(key);
    }
  });

  it("depends on the key, which is drawn for each run, and shared where asked", () => {
    const key = fingerprintKey();
    try {
      const mine = fp("ada@example.com");
      useFingerprintKey([key[0] ^ 1, key[1]]);
      expect(fp("ada@example.com")).not.toEqual(mine);
      useFingerprintKey(key);
      expect(fp("ada@example.com")).toEqual(mine);
    } finally {
      useFingerprintKey(key);
    }
    expect(key).not.toEqual([0, 0]);
  });

  it("folds case as toLowerCase does, wherever a character past ASCII is", () => {
    for (const text of ["ADA@EXAMPLE.COM", "ÉVE@x.io", "eve@X.IÖ", "ab@cÉ", "ABÉ", "Σ@x.io", "İ@x.io"]) {
      expect(fp(text), text).toEqual(fp(text.toLowerCase(), false));
      expect(fp(text, false), text).not.toEqual(fp(text.toLowerCase(), false));
    }
    expect(fp("plain@x.io")).toEqual(fp("plain@x.io", false));
  });
});
