// A job's first sources, each against the real thing: files on disk (the newest match of a
// glob, one still being written left alone), a program run (its output, its failure), and an
// HTTP server of the test's own (a body, an error status, a body cut short).

import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchSource, SourceError } from "../../src/sources/fetchSource.js";
import { addSecret } from "../../src/text/redact.js";

const dir = mkdtempSync(join(tmpdir(), "syncfile-sources-"));
let runs = 0;
/** A fresh run folder, as a run makes one. */
const runFolder = () => {
  const folder = join(dir, `run-${runs++}`);
  mkdirSync(folder);
  return folder;
};
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a file source", () => {
  const exports = join(dir, "exports");
  mkdirSync(exports);
  const at = (name: string, text: string, secondsAgo: number) => {
    const path = join(exports, name);
    writeFileSync(path, text);
    const time = (Date.now() - secondsAgo * 1000) / 1000;
    utimesSync(path, time, time);
    return path;
  };

  it("gives the newest file a glob matches, copied, with its size and hash", async () => {
    at("people-2024-07-04.csv", "email\nold@example.com\n", 86_400);
    const newest = at("people-2024-07-05.csv", "email\nada@example.com\n", 3600);
    at("other.csv", "email\nnot@example.com\n", 10);
    const fetched = await fetchSource(
      { kind: "file", path: join(exports, "people-*.csv"), settleSeconds: 60 },
      runFolder(),
    );
    expect(fetched.kind).toBe("file");
    if (fetched.kind !== "file") return;
    expect(fetched.file).toMatchObject({
      name: "people-2024-07-05.csv",
      bytes: 22,
      sha256: sha("email\nada@example.com\n"),
      from: newest,
    });
    expect(readFileSync(fetched.file.path, "utf8")).toBe("email\nada@example.com\n");
  });

  it("leaves a file that changed within the settle time for the next run, and says none matches", async () => {
    const written = Math.floor(Date.now() / 1000) * 1000;
    utimesSync(at("hr-today.csv", "email\nhalf", 0), written / 1000, written / 1000);
    // the run's clock: 5 s after the file's last change, however long this test takes
    const waiting = await fetchSource(
      { kind: "file", path: join(exports, "hr-*.csv"), settleSeconds: 60 },
      runFolder(),
      { now: () => written + 5000 },
    );
    expect(waiting).toEqual({
      kind: "waiting",
      reason: `${join(exports, "hr-today.csv")} changed 5 s ago: it may still be being written (settle: 60 s)`,
    });
    const none = await fetchSource(
      { kind: "file", path: join(exports, "none-*.csv"), settleSeconds: 0 },
      runFolder(),
    );
    expect(none).toEqual({ kind: "waiting", reason: `no file matches ${join(exports, "none-*.csv")}` });
  });
});

describe("a command source", () => {
  it("gives the program's standard output", async () => {
    const fetched = await fetchSource(
      {
        kind: "command",
        command: [process.execPath, "-e", "process.stdout.write('email\\nada@example.com\\n')"],
        cwd: dir,
      },
      runFolder(),
    );
    expect(fetched.kind === "file" && fetched.file).toMatchObject({
      bytes: 22,
      sha256: sha("email\nada@example.com\n"),
    });
  });

  it("fails on a non-zero exit, with the end of its standard error, its secrets removed", async () => {
    addSecret("db-password-31337");
    const failing = fetchSource(
      {
        kind: "command",
        command: [
          process.execPath,
          "-e",
          "process.stdout.write('email\\n'); console.error('connecting with db-password-31337'); console.error('FATAL: no such table'); process.exit(3)",
          // a database URL among the arguments: its password is in no message either
          "postgres://reader:pw-in-argument-77@db.example.com/hr",
        ],
        cwd: dir,
      },
      runFolder(),
    );
    await expect(failing).rejects.toThrow(SourceError);
    await expect(failing).rejects.toThrow(/exited with 3: connecting with \*\*\* \/ FATAL: no such table$/);
    await expect(failing).rejects.toThrow(
      /^\S+ -e .* postgres:\/\/reader:\*\*\*@db\.example\.com\/hr exited with 3/,
    );
  });

  it("fails when the program is not there", async () => {
    await expect(
      fetchSource({ kind: "command", command: ["./no-such-export.sh"], cwd: dir }, runFolder()),
    ).rejects.toThrow("cannot run ./no-such-export.sh: ./no-such-export.sh is not there");
  });
});

describe("an http source", () => {
  let server: Server;
  let base = "";
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.headers.authorization !== "Bearer token-abc") {
        response.writeHead(401).end("who are you?");
      } else if (request.url === "/users.csv") {
        response.writeHead(200, { "Content-Type": "text/csv" }).end("email\nada@example.com\n");
      } else if (request.url === "/cut") {
        // promises 1000 bytes, sends 6, and hangs up
        response.writeHead(200, { "Content-Length": "1000" });
        response.write("email\n");
        setTimeout(() => response.socket?.destroy(), 20);
      } else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const headers = { Authorization: "Bearer token-abc" };

  it("gives the body of a GET with its headers, named as its path", async () => {
    const fetched = await fetchSource({ kind: "http", url: `${base}/users.csv`, headers }, runFolder());
    expect(fetched.kind === "file" && fetched.file).toMatchObject({ name: "users.csv", bytes: 22 });
  });

  it("fails on an error status and on a body cut short", async () => {
    await expect(
      fetchSource({ kind: "http", url: `${base}/users.csv`, headers: {} }, runFolder()),
    ).rejects.toThrow(`GET ${base}/users.csv answered 401 Unauthorized`);
    await expect(fetchSource({ kind: "http", url: `${base}/cut`, headers }, runFolder())).rejects.toThrow(
      /^the body of GET http:\/\/127\.0\.0\.1:\d+\/cut was cut short/,
    );
  });
});
