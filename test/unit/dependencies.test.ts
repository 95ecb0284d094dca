// What syncfile uses of its dependencies' internals, pinned: csv-parse's Parser#api, stream-json's
// verifier, ajv-formats' formats module and what saxes keeps between chunks are no public API, so package.json pins their exact
// versions, and these tests fail loudly, saying what changed and where we use it, when an
// upgrade changes what we rely on.

import { readFileSync } from "node:fs";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { Parser } from "csv-parse";
import { SaxesParser } from "saxes";
import semver from "semver";
import { jsonVerifier } from "stream-json/core/utils/verifier.js";
import { describe, expect, it } from "vitest";
import { root } from "../support/paths.js";

const manifest = JSON.parse(readFileSync(`${root}package.json`, "utf8")) as {
  dependencies: Record<string, string>;
};
const installedVersion = (name: string): string =>
  (JSON.parse(readFileSync(`${root}node_modules/${name}/package.json`, "utf8")) as { version: string })
    .version;

/**
 * Checks that package.json pins `name` exactly and that this version is installed, then runs
 * `check` on the `internal` that `users` rely on; any failure says what changed and what to do.
 */
function relyOn(name: string, internal: string, users: string, check: () => void): void {
  const pinned = manifest.dependencies[name] ?? "(not a dependency)";
  const installed = installedVersion(name);
  if (!/^\d+\.\d+\.\d+$/.test(pinned)) {
    throw new Error(
      `package.json must pin ${name} to one exact version, not "${pinned}": ${users} use its ` +
        `internal ${internal}, which any release may change. Write the version without ^ or ~.`,
    );
  }
  if (installed !== pinned) {
    throw new Error(
      `${name} ${installed} is installed but package.json pins ${pinned}. Run npm ci; to upgrade ` +
        `instead, re-check ${internal} (used by ${users}) against the new version, then pin that one.`,
    );
  }
  try {
    check();
  } catch (error) {
    throw new Error(
      `${name} ${installed} changed ${internal}: ${users} drive it directly; re-check them before ` +
        `upgrading (or keep ${name} at the last version that passes).\nWhat differs: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

interface CsvParseApi {
  info: { lines: number; bytes: number };
  state: { record: string[] };
  parse(
    buf: Buffer | undefined,
    end: boolean,
    push: (record: string[]) => void,
    close: () => void,
  ): (Error & { code?: string }) | undefined;
}

// the options src/csv/CsvParser.ts gives
const csvApi = (): CsvParseApi => {
  const parser = new Parser({
    delimiter: ",",
    record_delimiter: "\n",
    relax_column_count: true,
    skip_empty_lines: false,
    max_record_size: 20,
  }) as unknown as { api?: CsvParseApi };
  expect(typeof parser.api?.parse, "Parser#api.parse").toBe("function");
  return parser.api as CsvParseApi;
};
const noop = () => {};

// stream-chain's end-of-input marker, as src/json/_diagnose.ts passes it
const none = Symbol.for("object-stream.none");

/** Feeds `chunks` to a new verifier, then the end when `end`; the error it throws, or null. */
function verify(chunks: string[], end = true): { offset: unknown; message: string } | null {
  const feed = jsonVerifier() as unknown as (chunk: unknown) => unknown;
  try {
    for (const chunk of chunks) feed(chunk);
    if (end) feed(none);
    return null;
  } catch (error) {
    return { offset: (error as { offset?: unknown }).offset, message: (error as Error).message };
  }
}

describe("what we use of our dependencies' internals", () => {
  it("csv-parse: Parser#api, the core that CsvParser drives", () => {
    relyOn(
      "csv-parse",
      "Parser#api (parse(buffer, end, push, close), info.bytes, info.lines, state.record, error codes)",
      "src/csv/CsvParser.ts and the quote problems of src/csv/CsvReader.ts",
      () => {
        const api = csvApi();
        const seen: [string[], number, number][] = [];
        const push = (cells: string[]) => seen.push([cells, api.info.bytes, api.info.lines]);
        // records cut anywhere between buffers; an empty line is one empty cell; at each push,
        // info.bytes is where the next record starts and info.lines the line the record ends on
        // (its line break not counted yet)
        expect(api.parse(Buffer.from('a,b\n"x\ny",c\nd,'), false, push, noop)).toBeUndefined();
        expect(api.parse(Buffer.from("e,f\n\nlast"), false, push, noop)).toBeUndefined();
        expect(api.parse(undefined, true, push, noop)).toBeUndefined();
        expect(seen).toEqual([
          [["a", "b"], 4, 1],
          [["x\ny", "c"], 12, 3],
          [["d", "e", "f"], 18, 4],
          [[""], 19, 5],
          [["last"], 23, 6],
        ]);

        // a problem is returned, not thrown, under the codes CsvReader lists; state.record holds
        // the cells before it, and info.lines the line it is on
        const problem = (text: string, end: boolean) => {
          const failing = csvApi();
          let error = failing.parse(Buffer.from(text), false, noop, noop);
          if (!error && end) error = failing.parse(undefined, true, noop, noop);
          expect(error, JSON.stringify(text)).toBeInstanceOf(Error);
          return { code: error?.code, cells: failing.state.record.length, line: failing.info.lines };
        };
        expect(problem('h,i\na,"x\ny"z\n', false)).toEqual({
          code: "CSV_INVALID_CLOSING_QUOTE",
          cells: 1,
          line: 3,
        });
        expect(problem('a,b"c"\n', false)).toEqual({ code: "INVALID_OPENING_QUOTE", cells: 1, line: 1 });
        expect(problem('a,"b\n', true)).toMatchObject({ code: "CSV_QUOTE_NOT_CLOSED", cells: 1 });
        expect(problem(`a,${"b".repeat(30)}\n`, false)).toMatchObject({
          code: "CSV_MAX_RECORD_SIZE",
          cells: 1,
        });
      },
    );
  });

  it("stream-json: core/utils/verifier.js, which finds where text stops being JSON", () => {
    relyOn(
      "stream-json",
      "core/utils/verifier.js (jsonVerifier, its end marker, the error's offset and wording)",
      "src/json/_diagnose.ts and test/support/referenceReader.ts",
      () => {
        expect(typeof jsonVerifier, "jsonVerifier").toBe("function");
        expect(verify(['{"users": [1, 2]}  '])).toBeNull();
        // the offset counts characters (UTF-16 code units), not bytes: "é" is two bytes
        expect(verify(['{"é": 1 2}'])).toEqual({
          offset: 8,
          message: "ERROR at 8 (1, 9): Verifier cannot parse input: expected ','",
        });
        // across pieces the offset counts from the first piece (here: at the 3)
        expect(verify(["[1, ", "2 3]"])?.offset).toBe(6);
        // what more text could still cure waits for the end marker
        expect(verify(["[1"], false)).toBeNull();
        expect(verify(["[1"])).toEqual({
          offset: 2,
          message: "ERROR at 2 (1, 3): Verifier cannot parse input: expected ','",
        });
        // the wordings src/json/_diagnose.ts rephrases
        expect(verify(['{"a": 1,}'])?.message).toBe(
          "ERROR at 8 (1, 9): Verifier cannot parse input: unexpected token '}'",
        );
        expect(verify(["{1:2}"])?.message).toBe(
          "ERROR at 1 (1, 2): Verifier cannot parse input: expected an object key",
        );
        expect(verify(['"\\q"'])?.message).toBe(
          "ERROR at 1 (1, 2): Verifier cannot parse input: escaped characters",
        );
        expect(verify(['["abc'])?.message).toBe("ERROR at 5 (1, 6): Verifier has expected a string value");
        expect(verify(["[,"])?.message).toBe(
          "ERROR at 1 (1, 2): Verifier cannot parse input: expected a value",
        );
      },
    );
  });

  it("saxes: the text, name, entity, attributes and state it keeps between chunks", () => {
    relyOn(
      "saxes",
      "SaxesParser's private text, name, entity, attribList, state and entityReturnState",
      "src/xlsx/_xml.ts (which hands long text nodes on in pieces and bounds the rest)",
      () => {
        type Kept = { state: number; entityReturnState?: number; text: string; name: string; entity: string };
        const keptAfter = (xml: string, texts: string[] = []) => {
          const parser = new SaxesParser();
          parser.on("text", (t) => texts.push(t));
          parser.on("cdata", (t) => texts.push(t));
          parser.write(xml);
          return parser as unknown as Kept & { attribList: unknown[]; write(xml: string): void };
        };
        // the states _xml.ts names: S_TEXT 13, S_ENTITY 14, S_CDATA 20 to S_CDATA_ENDING_2 22
        expect(keptAfter("<a>hello")).toMatchObject({ state: 13, text: "hello" });
        expect(keptAfter("<a>x&am")).toMatchObject({
          state: 14,
          entityReturnState: 13,
          text: "x",
          entity: "am",
        });
        expect(keptAfter("<a><![CDATA[abc")).toMatchObject({ state: 20, text: "abc" });
        expect(keptAfter("<a><![CDATA[abc]")).toMatchObject({ state: 21, text: "abc" });
        expect(keptAfter("<a><![CDATA[abc]]")).toMatchObject({ state: 22, text: "abc" });
        // markup: kept in the same fields, in other states
        expect(keptAfter('<a b="xyz')).toMatchObject({ text: "xyz" });
        expect(keptAfter('<a b="x&am').entityReturnState).not.toBe(13);
        expect(keptAfter("<a><!--note").text).toBe("note");
        expect(keptAfter("<abc").name).toBe("abc");
        expect(keptAfter('<a b="1" c="2" ').attribList).toHaveLength(2);
        // what is taken out of `text` is not told again: the node's end tells only the rest
        const texts: string[] = [];
        const parser = keptAfter("<a>taken", texts);
        parser.text = "";
        parser.write("rest</a>");
        expect(texts).toEqual(["rest"]);
      },
    );
  });

  it("ajv-formats: dist/formats.js, the formats themselves", () => {
    relyOn(
      "ajv-formats",
      "dist/formats.js (fullFormats: date-time as {validate}, and the email, date, date-time formats)",
      "src/checks/lastUsedDate.ts and src/schema/validators.ts (addFormats by name)",
      () => {
        for (const name of ["email", "date", "date-time"]) expect(fullFormats, name).toHaveProperty(name);
        const isDateTime = (fullFormats["date-time"] as { validate?: unknown }).validate;
        expect(typeof isDateTime, 'fullFormats["date-time"].validate').toBe("function");
        const accepts = (value: string) => (isDateTime as (value: string) => boolean)(value);
        expect(accepts("2024-07-05T20:43:14Z")).toBe(true);
        expect(accepts("2024-07-05T20:43:14+02:00")).toBe(true);
        // a real calendar date and a time zone are required
        expect(accepts("2024-02-30T10:00:00Z")).toBe(false);
        expect(accepts("2024-07-05T20:43:14")).toBe(false);
        expect(accepts("2024-07-05")).toBe(false);
        expect(accepts("yesterday")).toBe(false);
      },
    );
  });
});

describe("the Node versions package.json promises", () => {
  it("every package npm ci installs supports them (npm would warn EBADENGINE)", () => {
    const promised = (
      JSON.parse(readFileSync(`${root}package.json`, "utf8")) as { engines: { node: string } }
    ).engines.node;
    const lock = JSON.parse(readFileSync(`${root}package-lock.json`, "utf8")) as {
      packages: Record<string, { version?: string; engines?: unknown; optional?: boolean }>;
    };
    const refusing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      const wanted = (entry.engines as { node?: unknown } | undefined)?.node;
      // a few old packages give engines as an array of strings, which npm ignores
      if (path === "" || typeof wanted !== "string" || semver.validRange(wanted) === null) continue;
      if (!semver.subset(promised, wanted)) refusing.push(`${path}@${entry.version}: node ${wanted}`);
    }
    expect(
      refusing,
      `these packages do not support node ${promised}: pin a release that does (in "overrides" ` +
        "for a dependency of a dependency), or raise engines.node and say so in the README",
    ).toEqual([]);
  });
});
