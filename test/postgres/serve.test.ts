// `syncfile serve --database`: the command a team runs, on a PostgreSQL database.

import { describe, expect, it } from "vitest";
import { startCli } from "../support/cli.js";
import { createTestDatabase } from "../support/postgres.js";
import { call, dataDir, KEY, upload } from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

describe("syncfile serve --database", () => {
  it("serves from a PostgreSQL database given by SYNCFILE_DATABASE_URL, and says where its data is", async () => {
    const database = await createTestDatabase();
    const data = await dataDir();
    const serve = startCli(["serve", "--data", data, "--port", "0"], {
      env: { ...process.env, SYNCFILE_DATABASE_URL: database, SYNCFILE_API_KEYS: KEY },
    });
    try {
      await waitFor(() => serve.output().stdout.includes("/docs"), "serve to start");
      const { stdout } = serve.output();
      const url = /listening on (http:\/\/\S+)/.exec(stdout)?.[1] as string;
      expect(stdout).toContain(`(metadata in ${database}, files in ${data})`);
      const idFile = await upload(
        url,
        "users.json",
        '{"users": [{"email": "a@example.com"}], "licenses": []}',
      );
      const sync = await call(url, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 4 },
      });
      expect(sync.body).toMatchObject({ success: true, users: 1 });
    } finally {
      serve.child.kill("SIGTERM");
      await serve.result;
    }
  });
});
