// `syncfile serve --database --storage`: the command a team runs, on a PostgreSQL database and
// a bucket.

import { afterAll, describe, expect, it } from "vitest";
import { startCli } from "../support/cli.js";
import { createTestDatabase } from "../support/postgres.js";
import { bucket, call, dataDir, embeddedDataDir, KEY, removeDataDirs, upload } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

afterAll(removeDataDirs);

describe("syncfile serve --database --storage", () => {
  it("serves from the PostgreSQL database and the bucket given by SYNCFILE_DATABASE_URL and SYNCFILE_STORAGE_URL, and says where its data is", async () => {
    const database = await createTestDatabase();
    const files = await bucket();
    const data = await dataDir();
    const serve = startCli(["serve", "--data", data, "--port", "0"], {
      env: {
        ...process.env,
        SYNCFILE_DATABASE_URL: database,
        SYNCFILE_STORAGE_URL: files.url,
        SYNCFILE_API_KEYS: KEY,
        SYNCFILE_DRAIN_DELAY: "0",
        AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: undefined, // serve says nothing of Node 20 itself
      },
    });
    try {
      await waitFor(() => serve.output().stderr.includes("/docs"), "serve to start");
      const { stderr } = serve.output();
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1] as string;
      expect(stderr).toContain(`(metadata in ${database}, files in s3://${files.name}/)`);
      const idFile = await upload(
        url,
        "users.json",
        '{"users": [{"email": "a@example.com"}], "licenses": []}',
      );
      const sync = await call(url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 4 },
      });
      expect(sync.body).toMatchObject({ success: true, users: 1 });
      expect(files.proxy.requests.some((line) => line.startsWith(`PUT /${files.name}/`))).toBe(true);
      // not a line of warning: the three lines of its address for people, and a log of info lines
      expect(serve.output().stderr.split("\n")).toEqual([
        expect.stringMatching(/^syncfile serve: listening on /),
        expect.stringMatching(/^ {2}the page: /),
        expect.stringMatching(/^ {2}the interface: /),
        "",
      ]);
      const levels = serve
        .output()
        .stdout.split("\n")
        .filter((line) => line !== "")
        .map((line) => (JSON.parse(line) as { level: string }).level);
      expect(new Set(levels)).toEqual(new Set(["info"]));
    } finally {
      serve.child.kill("SIGTERM");
      await serve.result;
    }
  });

  it("refuses a bucket that does not exist with exit 3, in one line", async () => {
    const files = await bucket();
    const missing = files.url.replace(files.name, "syncfile-missing");
    // the embedded database (no --database): the template's copy, not a cluster made anew first
    const data = await embeddedDataDir();
    const run = startCli(["serve", "--data", data, "--port", "0", "--storage", missing]);
    const { code, stderr } = await run.result;
    expect(code).toBe(3);
    expect(stderr).toBe(
      "syncfile: cannot use the bucket s3://syncfile-missing/: no such bucket (create it first)\n",
    );
  });
});
