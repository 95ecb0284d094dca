// Two `syncfile serve` processes on one PostgreSQL database and one bucket, on two ports, as a
// team runs the service behind a load balancer: a file uploaded through one downloads through
// the other; six concurrent syncs spread over both give one 200 and five 409; 201 upload URLs
// alternated between them within a minute make the 201st a 429; each report archive is made
// once; and when the instance that is syncing is killed, the other syncs at once and the
// interrupted account keeps its previous state.

import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture } from "../support/paths.js";
import { createTestDatabase, queryDatabase } from "../support/postgres.js";
import {
  bigDocument,
  bucket,
  call,
  dataDir,
  heldFile,
  OTHER_KEY,
  removeDataDirs,
  serveProcess,
  upload,
} from "../support/server.js";
import { waitFor } from "../support/waitFor.js";

type Instance = { child: ChildProcess; url: string };
let a: Instance;
let b: Instance;
let database: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const storage = (await bucket()).url;
  const start = async () =>
    serveProcess(await dataDir(), {}, [
      "--database",
      database,
      "--storage",
      storage,
      "--seed",
      fixture("seed.json"),
    ]);
  [a, b] = await Promise.all([start(), start()]);
}, 120_000);
afterAll(async () => {
  for (const instance of [a, b]) instance?.child.kill("SIGKILL");
  await removeDataDirs();
});

const sync = (base: string, idFile: number, idAppAccount: number) =>
  call(base, "PUT", "/v1.0/services/sync/custom", { json: { idFile, idAppAccount } });

/** The first `n` of `answers` to arrive. */
function first<T>(answers: Promise<T>[], n: number): Promise<T[]> {
  const arrived: T[] = [];
  return new Promise((resolve, reject) => {
    for (const answer of answers)
      answer.then((value) => {
        arrived.push(value);
        if (arrived.length === n) resolve(arrived);
      }, reject);
  });
}

describe("two syncfile serve processes on one PostgreSQL database and one bucket", () => {
  it("download through one a file uploaded through the other, byte for byte", async () => {
    const bytes = '{"users": [{"email": "ada@example.com"}], "licenses": []}';
    const id = await upload(a.url, "shared.json", bytes);
    const redirect = await call(b.url, "GET", `/v1.0/files/${id}/download`);
    expect(redirect.status).toBe(302);
    const download = await fetch(redirect.headers.get("location") as string);
    expect(download.status).toBe(200);
    expect(await download.text()).toBe(bytes);
  });

  it("give one 200 and five 409 to six concurrent syncs spread over both", async () => {
    const held = await heldFile(a.url, "", bigDocument(2000));
    const answers = Array.from({ length: 6 }, (_, i) => sync(i % 2 === 0 ? a.url : b.url, held.id, 10 + i));
    await held.opened; // one of them holds the lock and reads the file, which waits for the test
    const refused = await first(answers, 5);
    expect(refused.map((r) => r.status)).toEqual([409, 409, 409, 409, 409]);
    await held.release();
    const all = await Promise.all(answers);
    expect(all.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(all.find((r) => r.status === 200)?.body).toMatchObject({ users: 2000 });
  }, 120_000);

  it("allow 200 upload URLs a minute per key between them: the 201st is a 429, on either", async () => {
    const ask = (i: number) =>
      call(i % 2 === 0 ? a.url : b.url, "GET", `/v1.0/files/url?name=f${i}.json&type=application/json`, {
        key: OTHER_KEY,
      });
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++) statuses.push((await ask(i)).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const [onA, onB] = [await ask(200), await ask(201)];
    expect([onA.status, onB.status]).toEqual([429, 429]);
    expect(Number(onA.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 120_000);

  it("make each report archive once, both looking for due reports every second", async () => {
    const listing = async (base: string) => {
      const list = await call(base, "GET", "/v1.0/accessReviews/campaigns");
      return [
        ...(list.body.completedExecutions as { id: number; reportFileId: number | null }[]),
        ...(list.body.archivedExecutions as { id: number; reportFileId: number | null }[]),
      ];
    };
    // the seed's executions that finished before the start: their reports are due at once
    await waitFor(
      async () => (await listing(a.url)).filter((e) => e.reportFileId !== null).length >= 4,
      "the report archives of the finished executions",
    );
    const made = await queryDatabase<{ path: string; n: number }>(
      database,
      "SELECT path, count(*)::int AS n FROM files WHERE type = 'accessReviewReport' GROUP BY path",
    );
    expect(made.every((m) => m.n === 1)).toBe(true);
    const withReports = (await listing(b.url)).filter((e) => e.reportFileId !== null);
    expect(made.length).toBe(withReports.length);
    const report = withReports[0] as { reportFileId: number };
    const redirect = await call(b.url, "GET", `/v1.0/files/${report.reportFileId}/download`);
    const zip = new Uint8Array(await (await fetch(redirect.headers.get("location") as string)).arrayBuffer());
    expect([...zip.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]); // a ZIP, from the bucket
  }, 120_000);

  it("when the syncing instance is killed, let the other sync at once; the interrupted account keeps its state", async () => {
    const before = await upload(a.url, "before.json", '{"users": [{"email": "before@example.com"}]}');
    expect((await sync(a.url, before, 50)).status).toBe(200);
    const held = await heldFile(a.url, "", bigDocument(2000));
    const interrupted = sync(a.url, held.id, 50).catch(() => "killed" as const);
    await held.opened; // instance a holds the one-sync lock, reading the file
    expect((await sync(b.url, before, 51)).status).toBe(409);
    a.child.kill("SIGKILL");
    await new Promise((resolve) => a.child.once("exit", resolve));
    expect(await interrupted).toBe("killed");
    held.abandon();
    // the database let go of the lock with a's connection: no takeover, no timeout to wait out
    let accepted = await sync(b.url, before, 51);
    for (let tries = 0; accepted.status === 409 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50)); // the database noticing the closed connection
      accepted = await sync(b.url, before, 51);
    }
    expect(accepted.status).toBe(200);
    const users = await call(b.url, "GET", "/v1.0/appAccounts/50/users");
    expect(users.body.users).toEqual([{ email: "before@example.com", licenses: [] }]);
    expect((await sync(b.url, held.id, 50)).body).toMatchObject({ success: true, users: 2000 });
  }, 120_000);
});
