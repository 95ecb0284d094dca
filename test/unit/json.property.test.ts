// Properties of validation: any document validates without throwing; over generated valid
// documents, whitespace and chunking change nothing but locations, and one mutation gives a
// finding at exactly the mutated place.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isCode, type Report, validateStream, validateText } from "../../src/index.js";
import { locationIn } from "../../src/json/_position.js";
import { chunked, stream, utf8 } from "../support/chunks.js";
import {
  type Ast,
  documentArb,
  documentBytes,
  type Entry,
  mutationArb,
  num,
  obj,
  serialize,
  serializeMarked,
  spacesArb,
  str,
} from "../support/jsonAst.js";
import { modelAst, type ValidModel, validModelArb } from "../support/validDocument.js";

const withoutTiming = (report: Report) => ({ ...report, stats: { ...report.stats, durationMs: 0 } });
const withoutPlaces = (report: Report) => ({
  valid: report.valid,
  counts: report.counts,
  records: report.stats.records,
  findings: report.findings.map(({ code, pointer, message }) => ({ code, pointer, message })),
});

describe("any document", () => {
  it("validates without throwing, in any chunking, with codes from the catalog only", async () => {
    await fc.assert(
      fc.asyncProperty(
        documentArb,
        spacesArb,
        fc.option(mutationArb),
        fc.integer({ min: 1, max: 64 }),
        async (doc, spaces, m, size) => {
          const bytes = documentBytes(doc, spaces, m);
          const report = await validateStream(stream(chunked(bytes, size)));
          for (const finding of report.findings) expect(isCode(finding.code), finding.code).toBe(true);
          expect(report.valid).toBe(report.counts.error === 0);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("valid documents", () => {
  it("validate with no errors, the same report in any chunking and the same findings in any layout", async () => {
    await fc.assert(
      fc.asyncProperty(
        validModelArb,
        spacesArb,
        spacesArb,
        fc.integer({ min: 1, max: 97 }),
        async (model, a, b, size) => {
          const ast = modelAst(model);
          const bytes = utf8(serialize(ast, a));
          const whole = await validateStream(stream([bytes]));
          const pieces = await validateStream(stream(chunked(bytes, size)));
          const other = await validateStream(stream([utf8(serialize(ast, b))]));
          expect(whole.counts.error, JSON.stringify(whole.findings)).toBe(0);
          expect(withoutTiming(pieces)).toEqual(withoutTiming(whole));
          expect(withoutPlaces(other)).toEqual(withoutPlaces(whole));
        },
      ),
      { numRuns: 200 },
    );
  });
});

interface Mutation {
  code: string;
  /** Applies the mutation to the model; returns the pointer expected in the finding. */
  apply(model: ValidModel, pick: number): string | null;
}

const marked = (value: Ast): Ast => ({ ...value, mark: true });

/** Sets a field of a user (replacing it if present) to a marked value. */
function setUserField(key: string, value: Ast): Mutation["apply"] {
  return (model, pick) => {
    const i = pick % model.users.length;
    const user = model.users[i]!;
    user.fields = [...user.fields.filter(([k]) => k !== key), [key, marked(value)]];
    return `/users/${i}/${key}`;
  };
}

const MUTATIONS: Mutation[] = [
  { code: "user.status.enum", apply: setUserField("status", str("Active")) },
  { code: "user.roles.type", apply: setUserField("roles", str("Admin")) },
  {
    code: "user.roles.item",
    apply: (m, p) =>
      setUserField("roles", { arr: [str("x"), marked(num(7))] })(m, p) &&
      `/users/${p % m.users.length}/roles/1`,
  },
  { code: "user.lastUsedDate.format", apply: setUserField("lastUsedDate", str("2023-02-29")) },
  { code: "user.firstName.type", apply: setUserField("firstName", num(7)) },
  { code: "user.id.type", apply: setUserField("id", { raw: "true" }) },
  {
    code: "user.email.format",
    apply: (model, pick) => {
      const i = pick % model.users.length;
      model.users[i]!.email = "not-an-email";
      // license users that held this email now point nowhere: drop them
      for (const l of model.licenses)
        l.users = l.users.filter((u) => u.email.toLowerCase() !== "not-an-email");
      model.users[i]!.fields.unshift(["__mark_email", str("")]);
      return `/users/${i}/email`;
    },
  },
  {
    code: "user.property.unknown",
    apply: (model, pick) => {
      const i = pick % model.users.length;
      model.users[i]!.fields.push(["first_name", str("x"), true] as Entry);
      return `/users/${i}/first_name`;
    },
  },
  {
    code: "user.email.duplicate",
    apply: (model, pick) => {
      if (model.users.length < 2) return null;
      const i = 1 + (pick % (model.users.length - 1));
      const first = model.users[0]!.email.toUpperCase();
      for (const l of model.licenses) l.users = l.users.filter((u) => u.email !== model.users[i]!.email);
      model.users[i]!.email = first;
      model.users[i]!.fields.unshift(["__mark_email", str("")]);
      return `/users/${i}/email`;
    },
  },
  {
    code: "license.pricePerUser.negative",
    apply: (model, pick) => {
      if (model.licenses.length === 0) return null;
      const i = pick % model.licenses.length;
      const l = model.licenses[i]!;
      l.fields = [...l.fields.filter(([k]) => k !== "pricePerUser"), ["pricePerUser", marked(num(-5))]];
      return `/licenses/${i}/pricePerUser`;
    },
  },
  {
    code: "license.user.email.unknown",
    apply: (model, pick) => {
      if (model.licenses.length === 0) return null;
      const i = pick % model.licenses.length;
      const l = model.licenses[i]!;
      l.users.push({ email: "stranger@example.net", fields: [["__mark_email", str("")]] });
      return `/licenses/${i}/users/${l.users.length - 1}/email`;
    },
  },
  {
    // listed twice in its license, the second time in another case (decided by the fingerprint)
    code: "license.user.duplicate",
    apply: (model, pick) => {
      const l = model.licenses.find((x) => x.users.length > 0);
      if (!l) return null;
      const again = l.users[pick % l.users.length]!.email.toUpperCase();
      l.users.push({ email: again, fields: [["__mark_email", str("")]] });
      return `/licenses/${model.licenses.indexOf(l)}/users/${l.users.length - 1}/email`;
    },
  },
  {
    code: "license.user.licenseStatus.enum",
    apply: (model, pick) => {
      const l = model.licenses.find((x) => x.users.length > 0);
      if (!l) return null;
      const j = pick % l.users.length;
      const u = l.users[j]!;
      u.fields = [
        ...u.fields.filter(([k]) => k !== "licenseStatus"),
        ["licenseStatus", marked(str("Inactive"))],
      ];
      return `/licenses/${model.licenses.indexOf(l)}/users/${j}/licenseStatus`;
    },
  },
];

/** Marks the email value of records carrying the `__mark_email` flag, then drops the flag. */
function markEmails(ast: Ast): Ast {
  if ("arr" in ast) return { ...ast, arr: ast.arr.map(markEmails) };
  if (!("obj" in ast)) return ast;
  const flagged = ast.obj.some(([k]) => k === "__mark_email");
  return obj(
    ast.obj
      .filter(([k]) => k !== "__mark_email")
      .map(([k, v, m]): Entry => [k, flagged && k === "email" ? marked(v) : markEmails(v), m]),
  );
}

describe("one mutation of a valid document", () => {
  it("gives a finding at the mutated pointer, line and column", async () => {
    await fc.assert(
      fc.asyncProperty(
        validModelArb,
        spacesArb,
        fc.nat(MUTATIONS.length - 1),
        fc.nat(),
        async (generated, spaces, which, pick) => {
          const model = structuredClone(generated); // fast-check reuses generated values while shrinking
          const mutation = MUTATIONS[which]!;
          const pointer = mutation.apply(model, pick);
          fc.pre(pointer !== null);
          const { text, marked: at } = serializeMarked(markEmails(modelAst(model)), spaces);
          const report = await validateStream(stream([utf8(text)]));
          const expected = locationIn(text, at, { line: 1, column: 1, offset: 0 });
          const hit = report.findings.find((f) => f.code === mutation.code && f.pointer === pointer);
          expect(hit, `${mutation.code} at ${pointer} in ${JSON.stringify(report.findings)}`).toBeDefined();
          expect({ line: hit?.line, column: hit?.column, offset: hit?.offset }).toEqual(expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("a license user listed twice", () => {
  it("is reported at each repeat, in any case, against the first listing, and only within its license", () => {
    const doc = {
      users: [{ email: "a@x.io" }, { email: "b@x.io" }],
      licenses: [
        {
          name: "Pro",
          users: [{ email: "a@x.io" }, { email: "b@x.io" }, { email: "A@X.io" }, { email: "a@x.io" }],
        },
        { name: "Team", users: [{ email: "b@x.io" }, { email: "a@x.io" }] },
      ],
    };
    const findings = validateText(JSON.stringify(doc)).findings.map(({ code, pointer, message }) => ({
      code,
      pointer,
      message,
    }));
    expect(findings).toEqual([
      {
        code: "license.user.duplicate",
        pointer: "/licenses/0/users/2/email",
        message: 'email "A@X.io" is already listed in this license at /licenses/0/users/0',
      },
      {
        code: "license.user.duplicate",
        pointer: "/licenses/0/users/3/email",
        message: 'email "a@x.io" is already listed in this license at /licenses/0/users/0',
      },
    ]);
  });
});
