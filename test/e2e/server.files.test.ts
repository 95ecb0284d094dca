// Regressions of issue 30 on what stays behind a file id: an upload URL replayed after its file
// is registered never changes what the id syncs or downloads (the disk storage refuses the PUT;
// a bucket's presigned PUT cannot be refused, so the registration pins the object and a changed
// one is refused), and names of any script or punctuation go the whole way — upload URL, PUT,
// registration, download named by its Content-Disposition, sync — on both backends.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { fixture } from "../support/paths.js";
import { call, removeDataDirs, STORAGE, startServer, TestClock } from "../support/server.js";

const clock = new TestClock();
let server: SyncfileServer;
let base: string;

beforeAll(async () => {
  server = await startServer({ clock: clock.read });
  base = server.url;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

const example = readFileSync(fixture("valid/example.json"));
const put = (url: string, body: string | Uint8Array, type = "application/json") =>
  fetch(url, {
    method: "PUT",
    headers: { "content-type": type },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });

/** The name a Content-Disposition gives, read as RFC 6266 says: `filename*` first, else `filename`. */
function dispositionName(header: string | null): string | null {
  const star = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(header ?? "");
  if (star) return decodeURIComponent(star[1] as string);
  return (
    /(?:^|;)\s*filename\s*=\s*"((?:[^"\\]|\\.)*)"/.exec(header ?? "")?.[1]?.replace(/\\(.)/g, "$1") ?? null
  );
}

describe("file names of any script and punctuation", () => {
  const names = [
    "日本.json",
    "Привет мир.json",
    "مرحبا.json",
    "🎉 party.json",
    "ü.json",
    "50%off.json",
    "a+b.json",
    "c#1.json",
    "two  spaces.json",
    'say "hi".json',
    "it's (1).json",
    "a;b=c.json",
    "%41%2F.json",
  ];

  it.each(names.map((n) => [n]))(
    "%s: upload URL, PUT, register, download under its name, sync",
    async (name) => {
      const step1 = await call(
        base,
        "GET",
        `/v1.0/files/url?name=${encodeURIComponent(name)}&type=application/json`,
      );
      expect(step1.status).toBe(200);
      const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
      expect(filePath).toBe(`${clock.now}/${name}`);
      const stored = await put(url, example);
      expect(stored.status, await stored.text()).toBe(200);
      const registered = await call(base, "POST", "/v1.0/files", {
        json: { path: filePath, type: "customIntegrationData" },
      });
      expect(registered.status, registered.text).toBe(200);
      const idFile = registered.body.id as number;

      const download = await call(base, "GET", `/v1.0/files/${idFile}/download`);
      expect(download.status).toBe(302);
      const got = await fetch(download.headers.get("location") as string);
      const body = Buffer.from(await got.arrayBuffer());
      expect(got.status, body.toString()).toBe(200);
      expect(body.equals(example)).toBe(true);
      const disposition = got.headers.get("content-disposition");
      expect(disposition).toMatch(
        /^attachment; filename="[\x20-\x7e]*"(; filename\*=UTF-8''[!#$&+\-.^_`|~%0-9A-Za-z]+)?$/,
      );
      expect(dispositionName(disposition), disposition ?? "").toBe(name);
      // a bucket's presigned GET can name the file but add no other header
      if (STORAGE === "disk") expect(got.headers.get("x-content-type-options")).toBe("nosniff");

      const sync = await call(base, "PUT", "/v1.0/services/sync/custom", {
        json: { idFile, idAppAccount: 9 },
      });
      expect(sync.status, sync.text).toBe(200);
      expect(sync.body).toMatchObject({ users: 3 });
    },
  );
});
