// The Files and Integrations operations of the service's published document, as its own
// examples call them, on both backends: the CSV sync at /services/sync/gluu (and its older
// alias), a file's information, the upload of a small file in one multipart request (3 MiB
// exactly, and a byte more), and an upload URL asked for with a file type.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SyncfileServer } from "../../src/server/index.js";
import { fixture } from "../support/paths.js";
import { call, OTHER_KEY, removeDataDirs, STORAGE, startServer, upload } from "../support/server.js";

let server: SyncfileServer;
let base: string;

beforeAll(async () => {
  server = await startServer();
  base = server.url;
}, 60_000);
afterAll(async () => {
  await server?.close();
  await removeDataDirs();
});

const csv = readFileSync(fixture("valid/example.csv"));
const json = readFileSync(fixture("valid/example.json"));
const MiB3 = 3 * 1024 * 1024;

/** POST /v1.0/files/upload with a form of `fields` (a Blob is sent as a file named by its pair). */
async function uploadForm(fields: [string, string | [Blob, string]][], key?: string) {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (typeof value === "string") form.append(name, value);
    else form.append(name, value[0], value[1]);
  }
  const response = await fetch(`${base}/v1.0/files/upload`, {
    method: "POST",
    headers: { authorization: `Bearer ${key ?? "test-key-1"}` },
    body: form,
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const download = async (id: number) => {
  const redirect = await call(base, "GET", `/v1.0/files/${id}/download`);
  expect(redirect.status).toBe(302);
  const got = await fetch(new URL(redirect.headers.get("location") as string, base));
  return { type: got.headers.get("content-type"), bytes: new Uint8Array(await got.arrayBuffer()) };
};

describe("the service document's own examples", () => {
  it("upload a file as its curl lines do, and sync a CSV at /services/sync/gluu with ids as strings", async () => {
    // step 1 as the document's curl lines show it, the type the content type: type=text/csv
    const step1 = await call(base, "GET", "/v1.0/files/url?name=my_file.csv&type=text/csv");
    expect(step1.status).toBe(200);
    const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
    expect(filePath).toMatch(/^\d+\/my_file\.csv$/);
    const put = await fetch(url, { method: "PUT", headers: { "Content-Type": "text/csv" }, body: csv });
    expect(put.status).toBe(200);
    const registered = await call(base, "POST", "/v1.0/files", {
      json: { path: filePath, type: "customIntegrationData" },
    });
    expect(registered.status).toBe(200);
    const id = registered.body.id as number;
    const synced = await call(base, "PUT", "/v1.0/services/sync/gluu", {
      json: { idFile: String(id), idAppAccount: "1000" },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ success: true, format: "csv", idAppAccount: 1000, users: 3 });
    // GET /files/{FILE_ID}, with the type the file has
    const info = await call(base, "GET", `/v1.0/files/${id}?type=customIntegrationData`);
    expect(info.status).toBe(200);
    expect(info.body).toEqual({
      file: {
        id,
        type: "customIntegrationData",
        fileName: "my_file.csv",
        creationTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        uploadedBy: 1,
      },
    });
    const created = (info.body.file as { creationTime: string }).creationTime;
    expect(Math.abs(Date.parse(created) - Date.now())).toBeLessThan(10 * 60_000);
  });

  it("reads JSON at gluu as the CSV it must be, and keeps /services/sync/custom/csv as an alias in its rate limit", async () => {
    const idFile = await upload(base, "users.json", json);
    const refused = await call(base, "PUT", "/v1.0/services/sync/gluu", {
      json: { idFile, idAppAccount: 7 },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/^the file is invalid/);

    const csvFile = await upload(base, "users.csv", csv);
    const first = await call(base, "PUT", "/v1.0/services/sync/gluu", {
      json: { idFile: csvFile, idAppAccount: 8 },
    });
    const alias = await call(base, "PUT", "/v1.0/services/sync/custom/csv", {
      json: { idFile: csvFile, idAppAccount: 8 },
    });
    expect(alias.status).toBe(200);
    expect(alias.body).toMatchObject({ success: true, format: "csv", users: 3 });
    // one window for both paths: the alias took the next call of gluu's 200
    const remaining = (r: { headers: Headers }) => Number(r.headers.get("ratelimit-remaining"));
    expect(remaining(first) - remaining(alias)).toBe(1);
    expect(alias.headers.get("ratelimit-limit")).toBe("200");
  });
});

describe("GET /v1.0/files/{id}", () => {
  it("looks a file up as expenseReport when no type is given, and says which type to ask for", async () => {
    const data = await upload(base, "users.json", json);
    const none = await call(base, "GET", `/v1.0/files/${data}`);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(
      `file ${data} is not of type expenseReport (the type asked for when none is given): it is a customIntegrationData file; ask GET /v1.0/files/${data}?type=customIntegrationData`,
    );
    const report = await upload(base, "march.pdf", "%PDF-1.4", {
      contentType: "application/pdf",
      type: "expenseReport",
    });
    const info = await call(base, "GET", `/v1.0/files/${report}`, { key: OTHER_KEY });
    expect(info.status).toBe(200);
    expect(info.body.file).toMatchObject({
      id: report,
      type: "expenseReport",
      fileName: "march.pdf",
      uploadedBy: 1,
    });
    const other = await call(base, "GET", `/v1.0/files/${report}?type=plugin`);
    expect(other.status).toBe(404);
    expect(other.body.message).toMatch(/is not of type plugin: it is a expenseReport file/);
  });

  it("says what is wrong with the id and the type, and that a file is not there", async () => {
    const missing = await call(base, "GET", "/v1.0/files/999999?type=customIntegrationData");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("file 999999 not found");
    const id = await call(base, "GET", "/v1.0/files/abc");
    expect(id.status).toBe(400);
    expect(id.body.message).toBe('id must be a whole number of at least 1, got "abc"');
    const type = await call(base, "GET", "/v1.0/files/1?type=report");
    expect(type.status).toBe(400);
    expect(type.body.message).toBe(
      'type must be one of customIntegrationData, expenseReport, attachment, plugin, got "report"',
    );
  });
});

describe("POST /v1.0/files/upload", () => {
  it("stores and registers a file of exactly 3 MiB, named as sent, by the key that sent it", async () => {
    const bytes = new Uint8Array(MiB3).fill(0x41);
    bytes.set(new TextEncoder().encode("users,"), 0);
    const stored = await uploadForm(
      [
        ["type", "attachment"],
        ["file", [new Blob([bytes], { type: "text/csv" }), "big.csv"]],
      ],
      OTHER_KEY,
    );
    expect(stored.status).toBe(200);
    const id = stored.body.id as number;
    const info = await call(base, "GET", `/v1.0/files/${id}?type=attachment`);
    expect(info.body.file).toMatchObject({ id, type: "attachment", fileName: "big.csv", uploadedBy: 2 });
    const got = await download(id);
    expect(got.bytes.length).toBe(MiB3);
    expect(Buffer.compare(got.bytes, bytes)).toBe(0);
    expect(got.type).toMatch(/^text\/csv/);
  });

  it("refuses a byte more than 3 MiB with a 413 that says how to upload it instead", async () => {
    const over = await uploadForm([
      ["type", "customIntegrationData"],
      ["file", [new Blob([new Uint8Array(MiB3 + 1)]), "big.json"]],
    ]);
    expect(over.status).toBe(413);
    expect(over.body.message).toBe(
      "the file is larger than the limit of 3145728 bytes: POST /v1.0/files/upload takes files up to 3 MiB; upload a larger one with GET /v1.0/files/url, PUT and POST /v1.0/files",
    );
  });

  it("takes a data file a sync then reads", async () => {
    const stored = await uploadForm([
      ["file", [new Blob([json], { type: "application/json" }), "users.json"]],
      ["type", "customIntegrationData"],
    ]);
    expect(stored.status).toBe(200);
    const synced = await call(base, "PUT", "/v1.0/services/sync/custom", {
      json: { idFile: stored.body.id, idAppAccount: 9 },
    });
    expect(synced.status).toBe(200);
    expect(synced.body).toMatchObject({ success: true, users: 3 });
  });

  it("says what is wrong with a form", async () => {
    const file = (name = "users.json") => ["file", [new Blob([json]), name]] as [string, [Blob, string]];
    const cases: [[string, string | [Blob, string]][], number, string | RegExp][] = [
      [[file()], 400, "type is required: one of customIntegrationData, expenseReport, attachment, plugin"],
      [[["type", "attachment"]], 400, /^file is required: the file to upload, up to 3 MiB/],
      [[["type", "report"], file()], 400, /^type must be one of customIntegrationData, .*, got "report"$/],
      [
        [["type", "attachment"], file("notes.txt")],
        415,
        /^"notes\.txt" is not a file POST \/v1\.0\/files\/upload takes \(\.csv \.xls/,
      ],
      [[["type", "attachment"], file("..")], 400, /^the file's name must be the file's base name/],
      [
        [["type", "attachment"], ["owner", "me"], file()],
        400,
        /^the form has a field "owner": it takes file and type/,
      ],
      [
        [["type", "attachment"], file(), file("b.json")],
        400,
        /^the form has more than one file: it takes one/,
      ],
      [
        [
          ["type", "attachment"],
          ["file", "text"],
        ],
        400,
        /^file must be a file, not text/,
      ],
    ];
    for (const [fields, status, message] of cases) {
      const r = await uploadForm(fields);
      expect([r.status, r.body.message], JSON.stringify(fields.map(([name]) => name))).toEqual([
        status,
        typeof message === "string" ? message : expect.stringMatching(message),
      ]);
    }
    // a form the parser cannot read: cut off before its closing boundary, or with no boundary
    const cutOff = [
      "--XYZ",
      'Content-Disposition: form-data; name="type"',
      "",
      "customIntegrationData",
      "--XYZ",
      'Content-Disposition: form-data; name="file"; filename="users.json"',
      "Content-Type: application/json",
      "",
      '{"users":[',
    ].join("\r\n");
    for (const [contentType, body] of [
      ["multipart/form-data; boundary=XYZ", cutOff],
      ["multipart/form-data", "abc"],
    ] as const) {
      const broken = await call(base, "POST", "/v1.0/files/upload", {
        body,
        headers: { "content-type": contentType },
      });
      expect([broken.status, broken.body.message], contentType).toEqual([
        400,
        expect.stringMatching(/^the form cannot be read \(.+\): send a complete multipart\/form-data form/),
      ]);
    }
    const notAForm = await call(base, "POST", "/v1.0/files/upload", { json: { type: "attachment" } });
    expect(notAForm.status).toBe(400);
    expect(notAForm.body.message).toMatch(
      /^the body must be a multipart\/form-data form with a file and its type/,
    );
  });
});

describe("GET /v1.0/files/url with a file type", () => {
  it("signs the URL for any content type, and keeps the one the PUT came with", async () => {
    const step1 = await call(base, "GET", "/v1.0/files/url?name=users.json&type=customIntegrationData");
    expect(step1.status).toBe(200);
    const { url, filePath } = step1.body.uploadFileParameters as { url: string; filePath: string };
    const put = await fetch(url, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: json,
    });
    expect(put.status).toBe(200);
    const registered = await call(base, "POST", "/v1.0/files", {
      json: { path: filePath, type: "customIntegrationData" },
    });
    expect(registered.status).toBe(200);
    const got = await download(registered.body.id as number);
    expect(got.type).toMatch(/^application\/json/);
    expect(Buffer.compare(got.bytes, json)).toBe(0);
    // the official CLI's flow of the service's articles: the file type sent as the Content-Type
    // of the PUT, which is no media type; object storage takes it as any other
    const asArticles = await call(base, "GET", "/v1.0/files/url?name=users.json&type=customIntegrationData");
    const typed = asArticles.body.uploadFileParameters as { url: string; filePath: string };
    const putTyped = await fetch(typed.url, {
      method: "PUT",
      headers: { "content-type": "customIntegrationData" },
      body: json,
    });
    expect([putTyped.status, await putTyped.text()]).toEqual([200, ""]);
    const registeredTyped = await call(base, "POST", "/v1.0/files", {
      json: { path: typed.filePath, type: "customIntegrationData" },
    });
    expect(registeredTyped.status).toBe(200);
    expect(Buffer.compare((await download(registeredTyped.body.id as number)).bytes, json)).toBe(0);
    // a content type still binds the URL to it (s3rver, the tests' bucket, checks no signed header)
    if (STORAGE === "disk") {
      const typed = await call(base, "GET", "/v1.0/files/url?name=users.json&type=application/json");
      const signed = typed.body.uploadFileParameters as { url: string };
      const wrong = await fetch(signed.url, {
        method: "PUT",
        headers: { "content-type": "text/csv" },
        body: json,
      });
      expect(wrong.status).toBe(403);
      await wrong.text();
    }
    const blank = await call(base, "GET", "/v1.0/files/url?name=users.json&type=%20");
    expect(blank.status).toBe(400);
    expect(blank.body.message).toMatch(/^type must be the content type the file will be PUT with/);
  });
});
