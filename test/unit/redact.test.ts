// The one redaction: every credential a URL or a message may hold is taken out, and nothing
// else is changed.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addSecret, addSecretsOf, isSecretName, redactText, redactUrl } from "../../src/text/redact.js";

describe("redactUrl", () => {
  it.each([
    ["postgres://u:secret@db:5432/app", "postgres://u:***@db:5432/app"],
    ["redis://:secret@127.0.0.1:6379", "redis://:***@127.0.0.1:6379"],
    [
      "postgres://u@db/app?password=secret&sslmode=require",
      "postgres://u@db/app?password=[redacted]&sslmode=require",
    ],
    [
      "postgres://u@db/app?sslmode=require&PASSWORD=secret",
      "postgres://u@db/app?sslmode=require&PASSWORD=[redacted]",
    ],
    // a password that no parser accepts: a `/`, an `@`, a bad port
    ["http://user:pa/ss@proxy:3128", "http://user:***@proxy:3128"],
    ["http://user:p@ss@proxy:3128/", "http://user:***@proxy:3128/"],
    ["http://user:secret@proxy:99999999", "http://user:***@proxy:99999999"],
    ["s3://KEY:SECRET@bucket/prefix?region=eu-west-1", "s3://KEY:***@bucket/prefix?region=eu-west-1"],
    // the signature and credential of a signed URL, however its parameter's name is encoded
    ["/storage/1/a.json?X-Expires=1&X-Signature=abc", "/storage/1/a.json?X-Expires=1&X-Signature=[redacted]"],
    ["/storage/1/a.json?X%2DSignature=abc", "/storage/1/a.json?X%2DSignature=[redacted]"],
    [
      "/x?X-Amz-Credential=AKIA%2F1&X-Amz-Security-Token=t",
      "/x?X-Amz-Credential=[redacted]&X-Amz-Security-Token=[redacted]",
    ],
    [
      "https://api.example.com/v1.0/files?api_key=k&limit=5",
      "https://api.example.com/v1.0/files?api_key=[redacted]&limit=5",
    ],
  ])("%s", (url, redacted) => {
    expect(redactUrl(url)).toBe(redacted);
  });

  it("leaves a URL without a credential as it is", () => {
    for (const url of [
      "postgres://u@db:5432/app",
      "http://127.0.0.1:8080/v1.0/files/url?name=a.json&type=application/json",
      "s3://bucket?endpoint=http://127.0.0.1:9000&forcePathStyle=true",
      "/v1.0/accessReviews/campaigns?limit=5&completedAfter=2024-01-01",
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe("redactText", () => {
  it("redacts the URLs in a message and secret name=value pairs", () => {
    expect(
      redactText("cannot use the database postgres://u:pw1@db/app: connect ECONNREFUSED 10.0.0.1:5432"),
    ).toBe("cannot use the database postgres://u:***@db/app: connect ECONNREFUSED 10.0.0.1:5432");
    expect(redactText('"the proxy \\"http://me:top/secret@proxy:3128\\" is not a URL"')).not.toContain(
      "top/secret",
    );
    expect(redactText("host=db user=u password=hunter22 dbname=app")).toBe(
      "host=db user=u password=[redacted] dbname=app",
    );
  });

  it("takes a registered secret out wherever it appears: as written, percent-encoded, escaped for JSON", () => {
    addSecret('Sëcret"/42');
    expect(redactText('a: Sëcret"/42, b: S%C3%ABcret%22%2F42, c: {"p":"Sëcret\\"/42"}')).toBe(
      'a: ***, b: ***, c: {"p":"***"}',
    );
  });

  it("registers a URL's password and secret parameters, also for a message that quotes them alone", () => {
    addSecretsOf("postgres://u:Pa%24%24word9@db/app?sslpassword=keyphrase77");
    expect(redactText("password authentication failed: Pa$$word9")).not.toContain("Pa$$word9");
    expect(redactText("bad passphrase keyphrase77")).not.toContain("keyphrase77");
  });

  it("registers nothing shorter than 4 characters", () => {
    addSecret("ab");
    expect(redactText("about a tab")).toBe("about a tab");
  });

  it("names a parameter secret when its name says so", () => {
    for (const name of [
      "password",
      "X-Signature",
      "X%2DSignature",
      "access_token",
      "client_secret",
      "apikey",
      "sig",
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ["limit", "name", "type", "sslmode", "region", "completedAfter", "X-Expires"]) {
      expect(isSecretName(name), name).toBe(false);
    }
  });

  it("never shows a URL's password, whatever its characters", () => {
    fc.assert(
      fc.property(
        fc
          .string({ minLength: 6, maxLength: 20, unit: "grapheme-ascii" })
          .filter((p) => !/[\s"'<>`?#]/.test(p)),
        (password) => {
          const marked = `Q${password}Z`;
          const said = redactText(`cannot use postgres://someone:${marked}@db:5432/app: refused`);
          expect(said).not.toContain(marked);
          expect(said).toContain("postgres://someone:***@");
        },
      ),
    );
  });
});
