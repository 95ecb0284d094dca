// The ldap source against a real OpenLDAP (slapd, started by the test, capping a search at 1,000
// entries as Active Directory does): 1,500 entries read whole, page by page, a page asked for
// only as the records are taken; OpenLDAP's and Active Directory's users (AD's attributes under
// their own OIDs) made a CSV file that the built-in profiles read valid, their disabled accounts
// deleted, never active; a refused bind, a server that is not there and a connection cut half way
// fail with a SourceError that holds no password; ldaps:// and StartTLS with a CA of the test's own.

import { execFile } from "node:child_process";
import { once } from "node:events";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Client, SizeLimitExceededError } from "ldapts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertFile, validateFile } from "../../src/index.js";
import { ldapRecords } from "../../src/sources/ldap.js";
import { SourceError } from "../../src/sources/SourceError.js";
import type { LdapSource } from "../../src/sources/SourceSpec.js";
import { type SourceRecord, writeRecords } from "../../src/sources/writeRecords.js";
import { addSecret } from "../../src/text/redact.js";
import { runCli } from "../support/cli.js";
import { KEY, removeDataDirs, shownEmails, startServer } from "../support/server.js";
import { BASE, type Slapd, slapdCannotStart, slapdMissing, startSlapd } from "../support/slapd.js";
import { startTcpProxy } from "../support/tcpProxy.js";
import { waitFor } from "../support/waitFor.js";

const PEOPLE = 1500;
const READER = `cn=reader,${BASE}`;
const PASSWORD = "Reader-pw-8f3a1c";

const missing = slapdMissing() ?? (await slapdCannotStart());
if (missing !== null) {
  if (process.env.SYNCFILE_REQUIRE_LDAP === "1") throw new Error(`SYNCFILE_REQUIRE_LDAP=1 but ${missing}`);
  process.stdout.write(`the LDAP source's tests are skipped: ${missing}\n`);
}

/** An LDIF entry; a value that is not printable ASCII in base64 (`name:: …`). */
function entry(
  dn: string,
  attributes: Record<string, string | Buffer | readonly (string | Buffer)[]>,
): string {
  const line = (name: string, value: string | Buffer) =>
    typeof value === "string" && /^[\x20-\x7e]*$/.test(value) && !/^[ :<]/.test(value)
      ? `${name}: ${value}`
      : `${name}:: ${Buffer.from(value).toString("base64")}`;
  const lines = [line("dn", dn)];
  for (const [name, value] of Object.entries(attributes)) {
    for (const v of Array.isArray(value) ? value : [value]) lines.push(line(name, v as string | Buffer));
  }
  return `${lines.join("\n")}\n\n`;
}

/** Windows file time of an ISO date: 100-ns intervals since 1601. */
const fileTime = (iso: string) => (BigInt(Date.parse(iso)) * 10_000n + 116_444_736_000_000_000n).toString();

const GUID = Buffer.from("00112233445566778899aabbccddeeff", "hex");
const SALES = "CN=Sales\\2C EMEA,OU=Groups,DC=corp,DC=example,DC=com";
const ENGINEERING = "CN=Engineering,OU=Groups,DC=corp,DC=example,DC=com";

function directory(): string {
  let ldif = entry(BASE, { objectClass: ["dcObject", "organization"], dc: "example", o: "Example" });
  ldif += entry(READER, {
    objectClass: ["applicationProcess", "simpleSecurityObject"],
    cn: "reader",
    userPassword: PASSWORD,
  });
  ldif += entry(`ou=people,${BASE}`, { objectClass: "organizationalUnit", ou: "people" });
  for (let i = 1; i <= PEOPLE; i++) {
    const uid = `user${String(i).padStart(4, "0")}`;
    ldif += entry(`uid=${uid},ou=people,${BASE}`, {
      objectClass: "inetOrgPerson",
      uid,
      cn: `Person ${i}`,
      givenName: i === 3 ? "Björn" : `Given${i}`,
      sn: `Family${i}`,
      mail: `${uid}@example.org`,
      ...(i === 1 ? { userPassword: "{SSHA}notToBeCopied" } : {}),
      // an administrator's lock (ppolicy) and a lockout after failed binds
      ...(i === 7 ? { pwdAccountLockedTime: "000001010000Z" } : {}),
      ...(i === 8 ? { pwdAccountLockedTime: "20240705142311Z" } : {}),
    });
  }
  ldif += entry(`ou=ad,${BASE}`, { objectClass: "organizationalUnit", ou: "ad" });
  const ad = (cn: string, attributes: Record<string, string | Buffer | readonly (string | Buffer)[]>) =>
    entry(`cn=${cn},ou=ad,${BASE}`, {
      objectClass: ["inetOrgPerson", "syncfileAdUser"],
      cn,
      sn: cn.split(" ")[1] ?? cn,
      ...attributes,
    });
  ldif += ad("Ada Lovelace", {
    givenName: "Ada",
    mail: "ada@example.com",
    userPrincipalName: "ada@corp.example.com",
    sAMAccountName: "ada",
    userAccountControl: "512",
    lastLogonTimestamp: fileTime("2024-07-05T14:23:11Z"),
    memberOf: [SALES, ENGINEERING],
    objectGUID: GUID,
  });
  // disabled, never signed in, no mail: the UPN is the email
  ldif += ad("Grace Hopper", {
    givenName: "Grace",
    userPrincipalName: "grace@corp.example.com",
    sAMAccountName: "grace",
    userAccountControl: "514",
    lastLogonTimestamp: "0",
    memberOf: ENGINEERING,
  });
  // disabled with "password never expires" (0x10202); one domain controller's later lastLogon
  ldif += ad("Alan Turing", {
    givenName: "Alan",
    mail: "alan@example.com",
    sAMAccountName: "alan",
    userAccountControl: "66050",
    lastLogonTimestamp: fileTime("2024-05-01T10:00:00Z"),
    lastLogon: fileTime("2024-05-09T10:00:00Z"),
  });
  // enabled, password never expires
  ldif += ad("Joan Clarke", {
    givenName: "Joan",
    mail: "joan@example.com",
    sAMAccountName: "joan",
    userAccountControl: "66048",
  });
  // a contact: an address, but no account (no userAccountControl)
  ldif += entry(`cn=Supplier Contact,ou=contacts,${BASE}`, {
    objectClass: ["inetOrgPerson", "syncfileAdUser"],
    cn: "Supplier Contact",
    sn: "Contact",
    mail: "supplier@example.net",
  });
  return ldif.replace(
    `dn: cn=Supplier Contact`,
    `dn: ou=contacts,${BASE}\nobjectClass: organizationalUnit\nou: contacts\n\ndn: cn=Supplier Contact`,
  );
}

let slapd: Slapd;
let scratch: string;
let ca: string;

const source = (overrides: Partial<LdapSource> = {}): LdapSource => ({
  kind: "ldap",
  url: slapd.url,
  bindDN: READER,
  password: PASSWORD,
  base: `ou=people,${BASE}`,
  filter: "(objectClass=inetOrgPerson)",
  attributes: null,
  startTLS: false,
  ca: null,
  pageSize: 200,
  ...overrides,
});

async function all(records: AsyncIterable<SourceRecord>): Promise<SourceRecord[]> {
  const out: SourceRecord[] = [];
  for await (const record of records) out.push(record);
  return out;
}

async function failure(records: AsyncIterable<SourceRecord>): Promise<Error> {
  try {
    await all(records);
  } catch (error) {
    return error as Error;
  }
  throw new Error("the source did not fail");
}

/** The users the CSV of `records` converts to through `profile`, and its report. */
async function mapped(records: AsyncIterable<SourceRecord>, profile: string, name: string) {
  const csv = join(scratch, `${name}.csv`);
  await writeRecords(records, csv);
  const report = await validateFile(csv, { format: "csv", profile });
  const out = join(scratch, `${name}.json`);
  await convertFile(csv, out, { to: "json", force: true, profile });
  const users = JSON.parse(await readFile(out, "utf8")).users as Record<string, unknown>[];
  return { report, users, csv };
}

describe.skipIf(missing !== null)("the ldap source, on OpenLDAP", () => {
  beforeAll(async () => {
    addSecret(PASSWORD); // as the job file reader does
    scratch = await mkdtemp(join(tmpdir(), "syncfile-ldap-"));
    // a CA and a certificate for localhost, signed by it
    const run = promisify(execFile);
    ca = join(scratch, "ca.pem");
    const key = join(scratch, "server.key");
    const cert = join(scratch, "server.pem");
    await run("openssl", [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"],
      ...["-subj", "/CN=syncfile test CA", "-keyout", join(scratch, "ca.key"), "-out", ca],
    ]);
    await run("openssl", [
      ...["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost"],
      ...["-keyout", key, "-out", join(scratch, "server.csr")],
    ]);
    await writeFile(join(scratch, "ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
    await run("openssl", [
      ...["x509", "-req", "-in", join(scratch, "server.csr"), "-CA", ca, "-CAkey", join(scratch, "ca.key")],
      ...["-CAcreateserial", "-days", "2", "-extfile", join(scratch, "ext.cnf"), "-out", cert],
    ]);
    slapd = await startSlapd(directory(), { cert, key });
  });
  afterAll(async () => {
    await slapd?.stop();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("reads 1,500 entries whole, page by page, where a search without paging stops at 1,000", async () => {
    const client = new Client({ url: slapd.url });
    try {
      await client.bind(READER, PASSWORD);
      await expect(
        client.search(`ou=people,${BASE}`, { scope: "sub", filter: "(objectClass=inetOrgPerson)" }),
      ).rejects.toBeInstanceOf(SizeLimitExceededError);
    } finally {
      await client.unbind();
    }
    const records = await all(ldapRecords(source()));
    expect(records).toHaveLength(PEOPLE);
    expect(new Set(records.map((r) => r.dn)).size).toBe(PEOPLE);
    expect(records.find((r) => r.uid === "user0003")).toEqual({
      dn: `uid=user0003,ou=people,${BASE}`,
      objectClass: "inetOrgPerson",
      uid: "user0003",
      cn: "Person 3",
      givenName: "Björn",
      sn: "Family3",
      mail: "user0003@example.org",
    });
    // a password's hash is never copied, though the directory lets it be read
    expect(records.find((r) => r.uid === "user0001")).not.toHaveProperty("userPassword");
  });

  it("asks for the next page only as records are taken, and closes the connection when they no longer are", async () => {
    const proxy = await startTcpProxy(Number(new URL(slapd.url).port));
    try {
      const records = ldapRecords(source({ url: `ldap://127.0.0.1:${proxy.port}`, pageSize: 100 }));
      const first = await records.next();
      expect(first.done).toBe(false);
      const afterFirst = proxy.bytesDown;
      expect(proxy.open).toBe(1);
      let count = 1;
      for await (const _ of { [Symbol.asyncIterator]: () => records }) count++;
      expect(count).toBe(PEOPLE);
      // one page of fifteen had come when the first record was given
      expect(afterFirst).toBeLessThan(proxy.bytesDown / 5);
      await waitFor(() => proxy.open === 0, "the connection to be closed after the last record");

      const early = ldapRecords(source({ url: `ldap://127.0.0.1:${proxy.port}`, pageSize: 100 }));
      await early.next();
      await waitFor(() => proxy.open === 1, "the second connection");
      await early.return(undefined);
      await waitFor(() => proxy.open === 0, "the connection to be closed when the records are left");
    } finally {
      await proxy.close();
    }
  });

  it("gives OpenLDAP's users through the ldap profile, an administrator's lock deleted", async () => {
    const attributes = ["uid", "mail", "givenName", "sn", "cn", "pwdAccountLockedTime"];
    const { report, users } = await mapped(ldapRecords(source({ attributes })), "ldap", "openldap");
    expect(report.findings).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.stats.users).toBe(PEOPLE);
    const byId = new Map(users.map((u) => [u.id, u]));
    expect(byId.get("user0007")).toMatchObject({
      email: "user0007@example.org",
      status: "deleted",
      externalStatus: "Locked by an administrator",
    });
    expect(byId.get("user0008")).toMatchObject({ status: "active", externalStatus: "Locked out" });
    expect(byId.get("user0003")).toEqual({
      email: "user0003@example.org",
      id: "user0003",
      firstName: "Björn",
      lastName: "Family3",
    });
    expect(users.filter((u) => u.status === "deleted").map((u) => u.id)).toEqual(["user0007"]);
  });

  it("asks for ppolicy's lock with every user attribute, so that a locked account is not read active", async () => {
    const records = await all(ldapRecords(source({ filter: "(|(uid=user0007)(uid=user0009))" })));
    expect(records.map((r) => [r.uid, r.pwdAccountLockedTime])).toEqual([
      ["user0007", "000001010000Z"],
      ["user0009", undefined],
    ]);
  });

  it("gives Active Directory's users with their derived fields, read valid by the active-directory profile", async () => {
    const ad = source({
      base: `ou=ad,${BASE}`,
      filter: "(&(objectClass=syncfileAdUser)(userAccountControl=*))",
    });
    const records = await all(ldapRecords(ad));
    const ada = records.find((r) => r.sAMAccountName === "ada");
    expect(ada).toMatchObject({
      dn: `cn=Ada Lovelace,ou=ad,${BASE}`,
      objectGUID: GUID.toString("base64"),
      memberOf: [SALES, ENGINEERING],
      accountDisabled: "false",
      lastLogon: "2024-07-05T14:23:11.000Z",
      memberOfNames: ["Sales, EMEA", "Engineering"],
    });
    const grace = records.find((r) => r.sAMAccountName === "grace");
    expect(grace).toMatchObject({ accountDisabled: "true", memberOfNames: ["Engineering"] });
    expect(grace).not.toHaveProperty("lastLogon"); // 0: never signed in
    // the later of lastLogonTimestamp and one controller's lastLogon
    expect(records.find((r) => r.sAMAccountName === "alan")).toMatchObject({
      accountDisabled: "true",
      lastLogon: "2024-05-09T10:00:00.000Z",
    });

    const { report, users } = await mapped(ldapRecords(ad), "active-directory", "ad");
    expect(report.findings).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.mapping).toMatchObject({ name: "active-directory", how: "profile" });
    expect(users).toEqual([
      {
        email: "ada@example.com",
        id: GUID.toString("base64"),
        firstName: "Ada",
        lastName: "Lovelace",
        status: "active",
        externalStatus: "Enabled",
        roles: ["Sales, EMEA", "Engineering"],
        lastUsedDate: "2024-07-05",
      },
      {
        email: "grace@corp.example.com",
        id: "grace",
        firstName: "Grace",
        lastName: "Hopper",
        status: "deleted",
        externalStatus: "Disabled",
        roles: ["Engineering"],
      },
      {
        email: "alan@example.com",
        id: "alan",
        firstName: "Alan",
        lastName: "Turing",
        status: "deleted",
        externalStatus: "Disabled",
        lastUsedDate: "2024-05-09",
      },
      {
        email: "joan@example.com",
        id: "joan",
        firstName: "Joan",
        lastName: "Clarke",
        status: "active",
        externalStatus: "Enabled",
      },
    ]);
  });

  it("never reads an entry without userAccountControl as active: the profile says so at its row", async () => {
    const contacts = source({ base: `ou=contacts,${BASE}`, filter: "(objectClass=syncfileAdUser)" });
    const { report } = await mapped(ldapRecords(contacts), "active-directory", "contacts");
    expect(report.valid).toBe(false);
    expect(report.findings.map((f) => [f.code, f.row])).toEqual([["mapping.value", 1]]);
  });

  it("fails a refused bind with the server's words, never the password", async () => {
    const error = await failure(ldapRecords(source({ password: `${PASSWORD}-wrong` })));
    expect(error).toBeInstanceOf(SourceError);
    expect(error.message).toMatch(
      /cannot bind as cn=reader,dc=example,dc=org to ldap:\/\/127\.0\.0\.1:\d+: invalid credentials \(LDAP result 49\)/,
    );
    expect(error.message).not.toContain(PASSWORD);
  });

  it("fails a server that is not there, and a search the server refuses", async () => {
    const proxy = await startTcpProxy(1);
    const port = proxy.port;
    await proxy.close(); // a port nobody listens on
    const gone = await failure(ldapRecords(source({ url: `ldap://127.0.0.1:${port}` })));
    expect(gone).toBeInstanceOf(SourceError);
    expect(gone.message).toMatch(/ECONNREFUSED/);
    const bad = await failure(ldapRecords(source({ base: `ou=nowhere,${BASE}` })));
    expect(bad).toBeInstanceOf(SourceError);
    expect(bad.message).toMatch(
      /the search of ou=nowhere,dc=example,dc=org failed on ldap:\/\/127\.0\.0\.1:\d+: no such object \(LDAP result 32\)/,
    );
  });

  it("fails a connection cut half way through the search, after the records before the cut", async () => {
    const proxy = await startTcpProxy(Number(new URL(slapd.url).port));
    try {
      proxy.cutAfter(150_000); // the entries are about 250 bytes: pages of 100 are some 25 kB
      const got: SourceRecord[] = [];
      let error: unknown;
      try {
        for await (const record of ldapRecords(
          source({ url: `ldap://127.0.0.1:${proxy.port}`, pageSize: 100 }),
        ))
          got.push(record);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SourceError);
      expect((error as Error).message).toMatch(
        /the search of ou=people,dc=example,dc=org failed on ldap:\/\/127\.0\.0\.1:\d+: /,
      );
      expect((error as Error).message).not.toContain(PASSWORD);
      expect(got.length).toBeGreaterThan(0);
      expect(got.length).toBeLessThan(PEOPLE);
      await waitFor(() => proxy.open === 0, "the connection to be closed");
    } finally {
      await proxy.close();
    }
  });

  it("ends with the abort's reason when the job is stopped, its connection closed", async () => {
    const proxy = await startTcpProxy(Number(new URL(slapd.url).port));
    try {
      const controller = new AbortController();
      const records = ldapRecords(
        source({ url: `ldap://127.0.0.1:${proxy.port}`, pageSize: 100 }),
        controller.signal,
      );
      let count = 0;
      const error = await (async () => {
        try {
          for await (const _ of records)
            if (++count === 150) controller.abort(new Error("the job was stopped"));
        } catch (e) {
          return e as Error;
        }
        return null;
      })();
      expect(error?.message).toBe("the job was stopped");
      expect(count).toBe(150);
      await waitFor(() => proxy.open === 0, "the connection to be closed");
    } finally {
      await proxy.close();
    }
  });

  it("ends a bind that a server never answers when the job is stopped, its connection closed", async () => {
    const silent = createServer(); // accepts, and says nothing
    const open = new Set<Socket>();
    silent.on("connection", (socket) => {
      open.add(socket);
      socket.resume(); // read, so that the client's end is seen
      socket.on("close", () => open.delete(socket));
    });
    silent.listen(0, "127.0.0.1");
    await once(silent, "listening");
    try {
      const controller = new AbortController();
      const port = (silent.address() as { port: number }).port;
      const records = ldapRecords(source({ url: `ldap://127.0.0.1:${port}` }), controller.signal);
      const ended = records.next();
      await waitFor(() => open.size === 1, "the bind's connection");
      controller.abort(new Error("the job was stopped"));
      await expect(ended).rejects.toThrow("the job was stopped");
      await waitFor(() => open.size === 0, "the connection to be closed");
    } finally {
      silent.close();
    }
  });

  it("is a job's source: syncfile run pushes the directory's users, its password in a file and never shown", async () => {
    const server = await startServer();
    try {
      await writeFile(join(scratch, "ldap-password"), `${PASSWORD}\n`);
      await writeFile(
        join(scratch, "people.job.yaml"),
        `jobs:
  - name: people
    source:
      ldap: { url: "${slapd.url}", bindDN: "${READER}", password_file: ./ldap-password, base: "ou=people,${BASE}", filter: "(objectClass=inetOrgPerson)", pageSize: 300 }
    profile: ldap
    service: { url: "\${BASE_URL}", apiKey: "\${API_KEY}", appAccount: 77 }
    state: ./ldap-state
`,
      );
      const r = await runCli(["run", join(scratch, "people.job.yaml")], {
        env: { ...process.env, BASE_URL: server.url, API_KEY: KEY },
      });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`^people: synced; ${PEOPLE} users, file \\d+`));
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
      const emails = await shownEmails(server.url, 77);
      // the one an administrator locked is deleted: the service shows the others
      expect(emails).toHaveLength(PEOPLE - 1);
      expect(emails).not.toContain("user0007@example.org");
      const record = (await readFile(join(scratch, "ldap-state", "runs.jsonl"), "utf8")).trim();
      expect(record).not.toContain(PASSWORD);
      expect(JSON.parse(record).source.from).toBe(
        `ldap ${slapd.url} ou=people,${BASE} (objectClass=inetOrgPerson)`,
      );
    } finally {
      await server.close();
      await removeDataDirs();
    }
  });

  it("reads over ldaps:// and StartTLS with a CA file, and refuses a server the CA did not sign", async () => {
    const ldaps = slapd.ldapsUrl as string;
    const filter = "(uid=user000*)";
    expect(await all(ldapRecords(source({ url: ldaps, ca, filter })))).toHaveLength(9);
    const startTLS = source({ startTLS: true, ca, filter });
    expect(await all(ldapRecords(startTLS))).toHaveLength(9);
    const untrusted = await failure(ldapRecords(source({ url: ldaps, filter })));
    expect(untrusted).toBeInstanceOf(SourceError);
    expect(untrusted.message).toMatch(/self[- ]signed|unable to (get|verify)/i);
  });
});
