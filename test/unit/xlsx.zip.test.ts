// The browser's ZIP reader (src/xlsx/_zip.browser.ts) against yauzl's, which Node reads workbooks
// with (src/xlsx/_zip.ts): the same parts with the same inflated bytes from every workbook
// fixture and from the forms the fixtures lack (stored, ZIP64); the same archives refused when
// their central directory is damaged; and whatever the damage, an Error saying what — never a
// TypeError from the reader itself, never a hang. Both read from a Blob through blobRange.

import { readdirSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import fc from "fast-check";
import { strFromU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import yauzl from "yauzl";
import { blobRange } from "../../src/bytes/ByteRange.js";
import { relationshipsPart, targetPart } from "../../src/xlsx/_partNames.js";
import type { ZipArchive } from "../../src/xlsx/_ZipArchive.js";
import { ZipParts as BrowserZip } from "../../src/xlsx/_zip.browser.js";
import { ZipParts as NodeZip } from "../../src/xlsx/_zip.js";
import { fixture } from "../support/paths.js";
import { byteChangesArb, centralDirectoryOffset, changed, zip64Archive } from "../support/zipArchives.js";

const WORKBOOKS = ["valid", "invalid", "workbooks"].flatMap((folder) =>
  readdirSync(fixture(folder))
    .filter((name) => name.endsWith(".xlsx") && name !== "protected.xlsx") // that one is no ZIP
    .map((name) => fixture(`${folder}/${name}`)),
);

/** The names of the entries in `archive` as yauzl lists them, in order. */
function yauzlNames(archive: Uint8Array): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(Buffer.from(archive), { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on("entry", (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.once("end", () => resolve(names));
      zip.once("error", reject);
      zip.readEntry();
    });
  });
}

/** What a reader makes of each of `names` in `archive`: its sizes and bytes, or the error reading it. */
type Reading = { open: "refused"; error: Error } | { open: "read"; parts: Record<string, PartReading> };
type PartReading = null | { error: Error } | { sizes: [number, number]; bytes: Buffer };

async function reading(
  reader: { open(file: ReturnType<typeof blobRange>): Promise<ZipArchive> },
  archive: Uint8Array,
  names: readonly string[],
): Promise<Reading> {
  let zip: ZipArchive;
  try {
    zip = await reader.open(blobRange(new Blob([archive])));
  } catch (error) {
    return { open: "refused", error: error as Error };
  }
  const parts: Record<string, PartReading> = {};
  try {
    for (const name of names) {
      const entry = zip.entry(name);
      if (!entry) {
        parts[name] = null;
        continue;
      }
      try {
        const chunks: Uint8Array[] = [];
        for await (const chunk of await zip.read(entry)) chunks.push(Uint8Array.from(chunk));
        parts[name] = { sizes: [entry.compressedSize, entry.uncompressedSize], bytes: Buffer.concat(chunks) };
      } catch (error) {
        parts[name] = { error: error as Error };
      }
    }
  } finally {
    zip.close();
  }
  return { open: "read", parts };
}

/** Every error of the browser's reader is a plain Error with a message: never one of its own bugs. */
function expectOwnErrors(result: Reading): void {
  const errors =
    result.open === "refused"
      ? [result.error]
      : Object.values(result.parts).flatMap((p) => (p && "error" in p ? [p.error] : []));
  for (const error of errors) {
    expect(error.constructor, error.stack).toBe(Error);
    expect(error.message).not.toBe("");
  }
}

/** Refused or read, each part read or not, alike; and where both read a part, the same bytes. */
async function expectAlike(archive: Uint8Array, names: readonly string[], what: string): Promise<void> {
  const [node, browser] = await Promise.all([
    reading(NodeZip, archive, names),
    reading(BrowserZip, archive, names),
  ]);
  expectOwnErrors(browser);
  expect(browser.open, `${what}: ${browser.open === "refused" ? browser.error.message : "read"}`).toBe(
    node.open,
  );
  if (node.open === "refused" || browser.open === "refused") return;
  for (const name of names) {
    const [n, b] = [node.parts[name], browser.parts[name]];
    expect(b === null, `${what}: ${name} listed`).toBe(n === null);
    if (n && b && "bytes" in n && "bytes" in b) {
      expect(b.sizes, `${what}: ${name}`).toEqual(n.sizes);
      expect(b.bytes.equals(n.bytes), `${what}: ${name}'s bytes`).toBe(true);
    }
  }
}

describe("the browser's ZIP reader, beside yauzl", () => {
  it("lists the parts of every workbook fixture and inflates them to yauzl's bytes", async () => {
    expect(WORKBOOKS.length).toBeGreaterThanOrEqual(9);
    for (const path of WORKBOOKS) {
      const archive = readFileSync(path);
      // invalid/xlsx.corrupt.xlsx is a workbook's first half: no ZIP to either reader
      const names = path.endsWith("xlsx.corrupt.xlsx") ? [] : await yauzlNames(archive);
      if (names.length > 0) expect(names.sort()).toEqual(Object.keys(unzipSync(archive)).sort());
      const browser = await reading(BrowserZip, archive, [...names, "xl/none.xml"]);
      const node = await reading(NodeZip, archive, [...names, "xl/none.xml"]);
      if (node.open === "refused") expect(browser.open, path).toBe("refused");
      else expect(browser, path).toEqual(node);
      if (browser.open === "read") expect(browser.parts["xl/none.xml"]).toBeNull();
    }
  });

  it("finds parts by name in any case, with or without a leading /", async () => {
    const zip = await BrowserZip.open(blobRange(new Blob([readFileSync(WORKBOOKS[0] as string)])));
    expect(zip.entry("/XL/Workbook.XML")?.name).toBe("xl/workbook.xml");
  });

  it("reads stored parts and ZIP64 archives as yauzl does", async () => {
    const parts = unzipSync(readFileSync(fixture("workbooks/bad-status.xlsx")));
    const names = Object.keys(parts);
    await expectAlike(zipSync(parts, { level: 0 }), names, "stored");
    const zip64 = zip64Archive(parts);
    await expectAlike(zip64, names, "ZIP64");
    const read = await reading(BrowserZip, zip64, names);
    expect(read.open === "read" && read.parts["xl/workbook.xml"]).toMatchObject({
      bytes: Buffer.from(parts["xl/workbook.xml"] as Uint8Array),
    });
  });

  it("refuses an archive cut short anywhere, as yauzl does, with a reason", async () => {
    const archive = readFileSync(fixture("workbooks/bad-status.xlsx"));
    const names = await yauzlNames(archive);
    const cuts = [0, 1, 4, 21, 22, 100, 2000, centralDirectoryOffset(archive)];
    for (let end = archive.length - 120; end < archive.length; end++) cuts.push(end);
    for (const cut of cuts) await expectAlike(archive.subarray(0, cut), names, `cut at ${cut}`);
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: archive.length - 1 }), async (cut) => {
        await expectAlike(archive.subarray(0, cut), names, `cut at ${cut}`);
      }),
      { numRuns: 100 },
    );
  });

  it("refuses an archive with a byte of its central directory changed where yauzl does, and reads the rest alike", async () => {
    const archive = readFileSync(fixture("workbooks/bad-status.xlsx"));
    const names = await yauzlNames(archive);
    const directory = centralDirectoryOffset(archive);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: directory, max: archive.length - 1 }),
        fc.integer({ min: 1, max: 255 }),
        async (at, flip) => {
          const damaged = Uint8Array.from(archive);
          damaged[at] = (damaged[at] as number) ^ flip;
          await expectAlike(damaged, names, `byte ${at} ^ ${flip}`);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("gives an Error saying what is damaged, whatever bytes change, and reads what both can read alike", async () => {
    const archive = readFileSync(fixture("workbooks/bad-status.xlsx"));
    const names = await yauzlNames(archive);
    await fc.assert(
      fc.asyncProperty(byteChangesArb(archive.length), async (changes) => {
        const damaged = changed(archive, changes);
        const [node, browser] = await Promise.all([
          reading(NodeZip, damaged, names),
          reading(BrowserZip, damaged, names),
        ]);
        expectOwnErrors(browser);
        // the central directory is read by the same rules; a part's damaged Deflate data may
        // be caught by one inflater and not the other (zlib checks more), but what both
        // inflate is the same
        expect(browser.open).toBe(node.open);
        if (node.open === "refused" || browser.open === "refused") return;
        for (const name of names) {
          const [n, b] = [node.parts[name], browser.parts[name]];
          if (n && b && "bytes" in n && "bytes" in b) expect(b.bytes.equals(n.bytes), name).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("says which part is damaged", async () => {
    const parts = unzipSync(readFileSync(fixture("workbooks/bad-status.xlsx")));
    const archive = zipSync(parts);
    const sheet = "xl/worksheets/sheet1.xml";
    const read = async (bytes: Uint8Array) => {
      const zip = await BrowserZip.open(blobRange(new Blob([bytes])));
      const chunks: string[] = [];
      for await (const chunk of await zip.read(zip.entry(sheet) as never)) chunks.push(strFromU8(chunk));
      return chunks.join("");
    };
    expect(await read(archive)).toBe(strFromU8(parts[sheet] as Uint8Array));
    // the sheet's local header, then its compressed data, overwritten
    const start = Buffer.from(archive).indexOf(sheet) - 30;
    const header = Uint8Array.from(archive);
    header[start] = 0;
    await expect(read(header)).rejects.toThrow(`the local header of the part ${sheet} is damaged`);
    const data = Uint8Array.from(archive);
    data.fill(0xff, start + 30 + sheet.length, start + 30 + sheet.length + 8);
    await expect(read(data)).rejects.toThrow(`the compressed data of the part ${sheet} is damaged`);
  });
});

describe("part names", () => {
  const segment = fc.constantFrom("xl", "_rels", "a.xml", "..", ".", "", "Sheet 1.xml");
  const path = fc.array(segment, { maxLength: 5 }).map((s) => s.join("/"));
  // a part's name never starts with "/" (a relationship's absolute target loses it)
  const part = path.filter((p) => !p.startsWith("/"));

  it("resolve as path.posix resolves them", () => {
    fc.assert(
      fc.property(part, path, (part, target) => {
        const dir = posix.dirname(part);
        expect(relationshipsPart(part)).toBe(posix.join(dir, "_rels", `${posix.basename(part)}.rels`));
        expect(targetPart(part, target)).toBe(
          target.startsWith("/") ? target.slice(1) : posix.join(dir, target),
        );
      }),
      { numRuns: 2000 },
    );
    expect(relationshipsPart("")).toBe("_rels/.rels");
    expect(relationshipsPart("xl/workbook.xml")).toBe("xl/_rels/workbook.xml.rels");
    expect(targetPart("xl/workbook.xml", "worksheets/sheet1.xml")).toBe("xl/worksheets/sheet1.xml");
    expect(targetPart("xl/workbook.xml", "../docProps/app.xml")).toBe("docProps/app.xml");
    expect(targetPart("xl/workbook.xml", "/xl/styles.xml")).toBe("xl/styles.xml");
  });
});
