// A directory entry made a record, as ldapts gives it: values and lists, binary attributes in
// base64 or left out, passwords never copied, and Active Directory's derived fields — the
// disabled bit, the later of two file times (0 none), a group's CN however its DN escapes it.

import { describe, expect, it } from "vitest";
import { commonNameOf, dateOfFileTime, recordOfEntry } from "../../src/sources/_ldapEntry.js";

const fileTime = (iso: string) => (BigInt(Date.parse(iso)) * 10_000n + 116_444_736_000_000_000n).toString();

describe("an entry as a record", () => {
  it("keeps one value a string and several a list, drops what is empty, binary or a password", () => {
    const guid = Buffer.from("00112233445566778899aabbccddeeff", "hex");
    expect(
      recordOfEntry({
        dn: "uid=ada,dc=example,dc=org",
        uid: "ada",
        mail: ["ada@example.org", "lovelace@example.org"],
        telephoneNumber: [],
        objectGUID: guid,
        jpegPhoto: Buffer.from([0xff, 0xd8, 0xff]),
        "userCertificate;binary": Buffer.from([0x30, 0x82]),
        userPassword: "{SSHA}abc",
      }),
    ).toEqual({
      dn: "uid=ada,dc=example,dc=org",
      uid: "ada",
      mail: ["ada@example.org", "lovelace@example.org"],
      objectGUID: guid.toString("base64"),
    });
  });

  it("derives accountDisabled from userAccountControl's 0x2 bit, whatever the other flags", () => {
    const disabled = (control: string) =>
      recordOfEntry({ dn: "cn=x", userAccountControl: control }).accountDisabled;
    expect([512, 514, 66048, 66050, 546, 4096].map((c) => disabled(String(c)))).toEqual([
      "false",
      "true",
      "false",
      "true",
      "true",
      "false",
    ]);
    expect(recordOfEntry({ dn: "cn=x" })).not.toHaveProperty("accountDisabled");
    expect(recordOfEntry({ dn: "cn=x", userAccountControl: "n/a" })).not.toHaveProperty("accountDisabled");
  });

  it("gives the later of lastLogonTimestamp and lastLogon as an ISO date, and none for 0", () => {
    const both = recordOfEntry({
      dn: "cn=x",
      lastLogonTimestamp: fileTime("2024-07-05T14:23:11Z"),
      lastLogon: fileTime("2024-07-01T08:00:00Z"),
    });
    expect(both.lastLogon).toBe("2024-07-05T14:23:11.000Z");
    expect(recordOfEntry({ dn: "cn=x", lastLogon: fileTime("2024-07-01T08:00:00Z") }).lastLogon).toBe(
      "2024-07-01T08:00:00.000Z",
    );
    // never signed in: the raw 0 is not left as a date no mapping reads
    expect(recordOfEntry({ dn: "cn=x", lastLogonTimestamp: "0", lastLogon: "0" })).toEqual({
      dn: "cn=x",
      lastLogonTimestamp: "0",
    });
  });

  it("reads a file time of 0, never (0x7FFF…) or garbage as no date", () => {
    expect(dateOfFileTime("0")).toBeNull();
    expect(dateOfFileTime("9223372036854775807")).toBeNull();
    expect(dateOfFileTime("yesterday")).toBeNull();
    expect(dateOfFileTime(undefined)).toBeNull();
    expect(dateOfFileTime("1")).toBeNull(); // before 1970: no directory was there
    expect(dateOfFileTime(fileTime("2001-02-03T04:05:06Z"))?.toISOString()).toBe("2001-02-03T04:05:06.000Z");
  });

  it("names each group by its CN, its escapes undone", () => {
    expect(commonNameOf("CN=Sales\\, EMEA,OU=Groups,DC=corp")).toBe("Sales, EMEA");
    expect(commonNameOf("CN=Sales\\2C EMEA,OU=Groups,DC=corp")).toBe("Sales, EMEA");
    expect(commonNameOf("cn=R\\C3\\A9seau,ou=Groups")).toBe("Réseau");
    expect(commonNameOf("CN=Ops+OU=Groups,DC=corp")).toBe("Ops");
    expect(commonNameOf("OU=Groups,DC=corp")).toBe("OU=Groups,DC=corp");
    expect(recordOfEntry({ dn: "cn=x", memberOf: ["CN=A,OU=G", "CN=B\\+C,OU=G"] }).memberOfNames).toEqual([
      "A",
      "B+C",
    ]);
    expect(recordOfEntry({ dn: "cn=x", memberOf: "CN=Only,OU=G" }).memberOfNames).toEqual(["Only"]);
  });
});
