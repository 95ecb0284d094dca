// Regression (issue 48, item 3) on worker threads: two addresses made to collide under the old
// unkeyed fingerprint (collidingEmails) stay two users when a CSV file's rows are numbered and
// its license users checked on the parsing thread (csvParallel), and when a JSON file is decoded
// on one (jsonParallel). The workers are built scripts (dist/): `npm run build` first.

import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { AsReadRouter } from "../../src/convert/RecordRouter.js";
import * as library from "../../src/index.js";
import { normalizeValidateOptions, type ValidateOptions } from "../../src/pass/options.js";
import { type PassThreads, runPass, streamSource } from "../../src/pass/runPass.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import { collidingEmails } from "../support/collidingEmails.js";
import { root } from "../support/paths.js";

const workers = pathToFileURL(`${root}dist/`);

let a = "";
let b = "";
beforeAll(() => {
  [a, b] = collidingEmails();
}, 60_000);

/** `text` validated (and, with `json`, converted to JSON as read) on the worker `threads`. */
async function onWorker(
  threads: PassThreads,
  text: string,
  options: ValidateOptions,
  asRowsCome?: number,
  json = false,
): Promise<{ report: library.Report; text: string }> {
  let out = "";
  const router = json ? new AsReadRouter(new library.JsonWriter((s) => (out += s))) : null;
  const result = await runPass(
    streamSource(stream(chunked(utf8(text), 16))),
    normalizeValidateOptions({ ...options, parallel: true }),
    {
      workers,
      tap: router ? (record) => router.record(record) : null,
      licenseUserItems: router?.licenseUserItems ?? null,
      ...(asRowsCome === undefined ? {} : { asRowsCome }),
    },
  );
  expect(result.threads).toBe(threads);
  router?.end();
  return { report: result.report, text: out };
}

describe("two addresses with the same old fingerprint, on worker threads", { timeout: 60_000 }, () => {
  it("are two users of a CSV file, each with its licenses, whoever checks them", async () => {
    // three licenses: the parsing thread checks the users of every other one
    const csv = `email,firstName,licenseName\n${a},Ann,Pro\n${b},Bob,Team\n${a},Ann,Team\n${b},Bob,Pro\n${b},Bob,Max\n`;
    for (const asRowsCome of [undefined, 0, 1]) {
      const { report } = await onWorker("csv-worker", csv, { format: "csv" }, asRowsCome);
      expect(report.findings).toEqual([]);
      expect(report.stats).toMatchObject({ users: 2, licenses: 3, licenseUsers: 5 });
    }
    const { report, text } = await onWorker("csv-worker", csv, { format: "csv" }, undefined, true);
    expect(report.findings).toEqual([]);
    const doc = JSON.parse(text);
    expect(doc.users.map((u: { email: string }) => u.email)).toEqual([a, b]);
    expect(doc.licenses.map((l: { users: { email: string }[] }) => l.users.map((u) => u.email))).toEqual([
      [a, b],
      [b, a],
      [b],
    ]);
  });

  it("are two rows of an export with a row a user on the parsing thread", async () => {
    const { report } = await onWorker("csv-worker", `Email,Licenses\n${a},Pro\n${b},Pro\n`, {
      format: "csv",
    });
    expect(report.findings).toEqual([]);
    expect(report.stats).toMatchObject({ users: 2, licenseUsers: 2 });
  });

  it("are two users of a JSON file decoded on a worker, and a license user of neither is unknown", async () => {
    const two = { users: [{ email: a }, { email: b }], licenses: [{ name: "Pro", users: [{ email: b }] }] };
    expect((await onWorker("json-worker", JSON.stringify(two), {})).report.findings).toEqual([]);
    const one = { users: [{ email: a }], licenses: [{ name: "Pro", users: [{ email: b }] }] };
    const { report } = await onWorker("json-worker", JSON.stringify(one), {});
    expect(report.findings.map((f) => f.code)).toEqual(["license.user.email.unknown"]);
  });
});
