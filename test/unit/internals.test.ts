// The pieces that carry scale: fingerprint sets, spill lists, byte logs, suggestions, UTF-8 helpers.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { validateText } from "../../src/index.js";
import { ByteLog, writeText } from "../../src/spill/ByteLog.js";
import { FingerprintSet } from "../../src/spill/FingerprintSet.js";
import { fingerprint, lastFingerprint } from "../../src/spill/fingerprint.js";
import { SpillList } from "../../src/spill/SpillList.js";
import { suggest } from "../../src/text/suggest.js";
import { findInvalidUtf8, incompleteTail, startedCharacter, utf8Length } from "../../src/text/utf8.js";
import { utf8 } from "../support/chunks.js";

// the spills of this file go to a folder of its own: the tests below count the files left
// behind, which another test file (a CLI spilling meanwhile) must not add to
const own = mkdtempSync(join(tmpdir(), "syncfile-internals-"));
beforeAll(() => {
  vi.stubEnv("TMPDIR", own);
});
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(own, { recursive: true, force: true });
});

const fp = (s: string, fold = true): [number, number] => {
  fingerprint(s, fold);
  return [lastFingerprint.h1, lastFingerprint.h2];
};

describe("fingerprints", () => {
  it("fold case, including non-ASCII, and tell different strings apart", () => {
    expect(fp("Ada@Example.COM")).toEqual(fp("ada@example.com"));
    expect(fp("ÉLODIE@example.com")).toEqual(fp("élodie@example.com"));
    expect(fp("Ada", false)).not.toEqual(fp("ada", false));
    const seen = new Set<string>();
    for (let i = 0; i < 200_000; i++) seen.add(fp(`user${i}@example.com`).join(","));
    expect(seen.size).toBe(200_000);
  });
});

describe("FingerprintSet", () => {
  it.each([1, 100_000])(
    "stores and finds %i keys across pages and growth, reporting the first payload",
    (n) => {
      const set = new FingerprintSet();
      for (let i = 0; i < n; i++) expect(set.add(...fp(`k${i}`), i)).toBe(-1);
      expect(set.size).toBe(n);
      for (let i = 0; i < n; i += 997) expect(set.add(...fp(`K${i}`), 7)).toBe(i);
      expect(set.get(...fp("absent"))).toBe(-1);
      set.clear();
      expect(set.size).toBe(0);
      expect(set.get(...fp("k5"))).toBe(-1);
      expect(set.add(...fp("k5"), 1)).toBe(-1);
    },
  );
});

describe("FingerprintSet past its memory budget", () => {
  const keyFiles = () => readdirSync(tmpdir()).filter((name) => name.startsWith("syncfile-keys-")).length;

  it("answers as a Map would, for keys in memory and in runs on disk, across clears, sized for any count from the start", () => {
    const before = keyFiles();
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            {
              arbitrary: fc.record({
                op: fc.constant("add" as const),
                key: fc.integer({ min: 0, max: 3000 }),
              }),
              weight: 12,
            },
            {
              arbitrary: fc.record({
                op: fc.constant("get" as const),
                key: fc.integer({ min: 0, max: 3000 }),
              }),
              weight: 6,
            },
            { arbitrary: fc.record({ op: fc.constant("clear" as const) }), weight: 1 },
          ),
          { maxLength: 1500, size: "max" },
        ),
        // runs of one bucket and of several (8 keys a bucket), of one page and of several (a page
        // holds the largest power of two up to memoryKeys: merged runs span pages, and a merge
        // gives back pages it takes again)
        fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 100, max: 400 })),
        // the keys its table is sized for at first: none, some, more than it keeps in memory
        fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5000 })),
        (ops, memoryKeys, expectedKeys) => {
          const set = new FingerprintSet(memoryKeys, expectedKeys);
          const model = new Map<number, number>();
          ops.forEach((step, n) => {
            if (step.op === "clear") {
              set.clear();
              model.clear();
            } else if (step.op === "add") {
              expect(set.add(...fp(`user${step.key}@example.com`), n)).toBe(model.get(step.key) ?? -1);
              if (!model.has(step.key)) model.set(step.key, n);
            } else {
              expect(set.get(...fp(`user${step.key}@example.com`))).toBe(model.get(step.key) ?? -1);
              expect(set.has(...fp(`user${step.key}@example.com`))).toBe(model.has(step.key));
            }
            expect(set.size).toBe(model.size);
          });
          set.dispose();
        },
      ),
      { numRuns: 150 },
    );
    expect(keyFiles()).toBe(before);
    // bound by CPU and disk, so it takes as long as a loaded machine makes it
  }, 120_000);

  it("answers as a Map would for keys whose h1s are equal, or differ only in their top or low bits", () => {
    // a spill sorts by unsigned h1 in buckets of its top bits, then h2 where h1s are equal: a key
    // out of place is not found by the runs' binary search
    const h1s = [0, 1, -1, 0x7fffffff, -0x80000000, 0x200000, 0x1fffff, -0x200000, 12345, -12345];
    const keyArb = fc.record({
      h1: fc.oneof(fc.constantFrom(...h1s), fc.integer({ min: -0x80000000, max: 0x7fffffff })),
      h2: fc.oneof(
        fc.constantFrom(0, 1, -1, 0x7fffffff, -0x80000000),
        fc.integer({ min: -0x80000000, max: 0x7fffffff }),
      ),
    });
    fc.assert(
      fc.property(
        fc.array(keyArb, { maxLength: 600 }),
        fc.integer({ min: 1, max: 64 }),
        (keys, memoryKeys) => {
          const set = new FingerprintSet(memoryKeys);
          const model = new Map<string, number>();
          keys.forEach(({ h1, h2 }, n) => {
            const name = `${h1},${h2}`;
            expect(set.add(h1, h2, n)).toBe(model.get(name) ?? -1);
            if (!model.has(name)) model.set(name, n);
          });
          for (const [name, payload] of model) {
            const [h1, h2] = name.split(",").map(Number) as [number, number];
            expect(set.get(h1, h2)).toBe(payload);
          }
          for (const h1 of h1s) expect(set.has(h1, 42)).toBe(model.has(`${h1},42`));
          set.dispose();
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);

  it("keeps 1 200 000 keys in two runs of 600 000 (16 bucket bits: h1's low half kept), each with its payload", () => {
    const set = new FingerprintSet(600_000);
    let wrong = 0;
    for (let i = 0; i < 1_200_000; i++) if (set.add(...fp(`k${i}`), i) !== -1) wrong++;
    expect(set.size).toBe(1_200_000);
    expect(set.spilled).toBe(1_200_000);
    for (let i = 0; i < 1_200_000; i += 7)
      if (set.get(...fp(`K${i}`)) !== i || !set.has(...fp(`k${i}`))) wrong++;
    for (let i = 0; i < 100_000; i++) if (set.has(...fp(`absent${i}`))) wrong++;
    expect(wrong).toBe(0);
    set.dispose();
    expect(set.size).toBe(0);
    expect(set.get(...fp("k5"))).toBe(-1);
  });
});

describe("FingerprintRuns' pages", () => {
  it("merges without holding two copies: the pages made are about those the keys need", () => {
    const set = new FingerprintSet(1024);
    const n = 256 * 1024;
    for (let i = 0; i < n; i++) set.add(...fp(`k${i}`), i);
    const { pages, bits } = set.runPages;
    expect(bits).toBe(10);
    // each key: h2 and h1's low half (or h1 whole), one page of each per 1024 keys; without
    // giving back a merge's pages as it reads past them, every merge would make new ones
    // (about nine times as many here)
    const needed = 2 * (set.spilled / 1024);
    expect(pages).toBeGreaterThanOrEqual(needed);
    expect(pages).toBeLessThanOrEqual(needed + 8);
    set.dispose();
  });
});

describe("SpillList", () => {
  it("keeps order across memory and disk, survives non-ASCII, and removes its file", () => {
    const list = new SpillList<{ i: number; s: string }>(10);
    for (let i = 0; i < 10_000; i++) list.push({ i, s: `é${"ü".repeat(i % 50)}` });
    expect(list.spilled).toBe(true);
    expect(list.length).toBe(10_000);
    let n = 0;
    for (const item of list) {
      expect(item.i).toBe(n);
      expect(item.s).toBe(`é${"ü".repeat(n % 50)}`);
      n++;
    }
    expect(n).toBe(10_000);
    list.dispose();
    expect(list.length).toBe(0);
  });

  it("never touches the disk while small", () => {
    const list = new SpillList<number>(100);
    list.push(1);
    expect([...list]).toEqual([1]);
    expect(list.spilled).toBe(false);
  });
});

describe("ByteLog", () => {
  const logDirs = () => readdirSync(tmpdir()).filter((name) => name.startsWith("syncfile-log-")).length;

  it("gives back every record, in order and by offset, across spills, spilled pages filled again (by two logs that share them) or not", () => {
    fc.assert(
      fc.property(
        // a record for log 0 or 1, and a spill of its log after about one record in ten
        fc.array(
          // up to 24 KB a record: some longer than the 16 KB read from a spilled file at once
          fc.tuple(fc.string({ unit: "binary", maxLength: 6000, size: "large" }), fc.nat(1), fc.nat(9)),
          { maxLength: 300, size: "large" },
        ),
        fc.boolean(),
        fc.integer({ min: 1, max: 8 }),
        (records, reuse, maxPageKiB) => {
          const dirsBefore = logDirs();
          const free = reuse ? [] : null;
          const logs = [new ByteLog(maxPageKiB * 1024, free), new ByteLog(maxPageKiB * 1024, free)];
          const written: { text: string; offset: number }[][] = [[], []];
          for (const [text, which, spill] of records) {
            const log = logs[which] as ByteLog;
            const { page, at } = log.reserve(text.length * 3);
            written[which]?.push({ text, offset: log.commit(writeText(page, at, text)) });
            if (spill === 0) log.spill();
          }
          const read = (view: { page: Buffer; at: number; length: number }) =>
            view.page.toString("utf8", view.at, view.at + view.length);
          logs.forEach((log, which) => {
            const texts = (written[which] ?? []).map(({ text }) => text);
            expect([...log.records()].map(read)).toEqual(texts);
            expect((written[which] ?? []).map(({ offset }) => read(log.read(offset)))).toEqual(texts);
            // and in the other order, each read past what the last one read
            const backwards = [...(written[which] ?? [])].reverse();
            expect(backwards.map(({ offset }) => read(log.read(offset)))).toEqual([...texts].reverse());
          });
          for (const log of logs) log.dispose();
          expect(logDirs()).toBe(dirsBefore);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("ByteLog, spilled, read back", () => {
  it("gives back records longer than what it reads of the file at once, beside short ones, in any order", () => {
    const log = new ByteLog();
    const texts = ["a", "é".repeat(20_000), "b", "x".repeat(40_000), "c"];
    const offsets = texts.map((text) => {
      const { page, at } = log.reserve(text.length * 3);
      return log.commit(writeText(page, at, text));
    });
    log.spill();
    const read = (offset: number) => {
      const view = log.read(offset);
      return view.page.toString("utf8", view.at, view.at + view.length);
    };
    expect(offsets.map(read)).toEqual(texts);
    expect([...offsets].reverse().map(read)).toEqual([...texts].reverse());
    log.dispose();
  });
});

describe("suggest", () => {
  it.each([
    ["first_name", "firstName"],
    ["Email", "email"],
    ["last name", "lastName"],
    ["statsu", "status"],
    ["lastUsed", undefined],
    ["zzz", undefined],
  ])("%s → %s", (name, expected) => {
    expect(suggest(name, ["email", "firstName", "lastName", "status", "lastUsedDate"])).toBe(expected);
  });
});

describe("UTF-8 helpers", () => {
  it("hold back exactly an incomplete character", () => {
    expect(incompleteTail(utf8("abc"))).toBe(0);
    expect(incompleteTail(new Uint8Array([0x61, 0xe2, 0x82]))).toBe(2);
    expect(incompleteTail(new Uint8Array([0x61, 0xe2, 0x82, 0xac]))).toBe(0);
    expect(incompleteTail(new Uint8Array([0xf0, 0x9f, 0x98]))).toBe(3);
  });

  it("hold back, strictly, only a valid start of a character", () => {
    expect(startedCharacter(new Uint8Array([0x61, 0xe2, 0x82]))).toBe(2);
    expect(startedCharacter(new Uint8Array([0xf0, 0x9f, 0x98]))).toBe(3);
    expect(startedCharacter(new Uint8Array([0x61, 0xe2, 0x82, 0xac]))).toBe(0);
    // no character starts so: a strict decoder refuses them without waiting for more
    for (const tail of [
      [0xff],
      [0xc0],
      [0xc1],
      [0xf5],
      [0xe0, 0x80],
      [0xed, 0xa0],
      [0xf0, 0x80],
      [0xf4, 0x90],
    ]) {
      expect(startedCharacter(Uint8Array.from([0x61, ...tail])), JSON.stringify(tail)).toBe(0);
    }
    expect(startedCharacter(new Uint8Array([0xe0, 0xa0]))).toBe(2);
    expect(startedCharacter(new Uint8Array([0xed, 0x9f]))).toBe(2);
  });

  it("find the first invalid byte and say why", () => {
    expect(findInvalidUtf8(utf8("héllo €😀"))).toBeNull();
    expect(findInvalidUtf8(new Uint8Array([0x61, 0x80]))?.index).toBe(1);
    expect(findInvalidUtf8(new Uint8Array([0xc0, 0xaf]))?.reason).toMatch(/never valid/);
    expect(findInvalidUtf8(new Uint8Array([0xe0, 0x80, 0x80]))?.reason).toMatch(/overlong/);
    expect(findInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80]))?.reason).toMatch(/surrogate/);
    expect(findInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))?.reason).toMatch(/above U\+10FFFF/);
  });

  it("count bytes of text", () => {
    expect(utf8Length("aé€😀")).toBe(1 + 2 + 3 + 4);
  });
});

describe("licenses before users", () => {
  it("checks license users once every user is known, at their own place", () => {
    const text =
      '{"licenses":[{"name":"P","users":[{"email":"a@b.co"},\n{"email":"nobody@b.co"}]}],"users":[{"email":"A@B.CO"}]}';
    const report = validateText(text);
    expect(report.findings.map((f) => [f.code, f.pointer, f.line, f.column])).toEqual([
      ["license.user.email.unknown", "/licenses/0/users/1/email", 2, 10],
    ]);
  });
});
