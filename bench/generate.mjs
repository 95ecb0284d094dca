// Generates realistic data files for the benchmarks (never committed): users with names in
// several scripts, statuses, roles and dates; licenses whose users are among them.

import { once } from "node:events";
import { createWriteStream } from "node:fs";

const FIRST = [
  "Ada",
  "Béatrice",
  "Chen",
  "Dana",
  "Élodie",
  "Farid",
  "Grace",
  "Hiro",
  "Inès",
  "José",
  "Kwame",
  "Łucja",
];
const LAST = [
  "Lovelace",
  "Müller",
  "O'Brien",
  "Nakamura",
  "Smith",
  "García",
  "Kowalski",
  "Nguyễn",
  "Dubois",
  "Иванова",
];
const ROLES = [["Member"], ["Admin", "Super admin"], ["Editor"], [], ["Viewer", "Billing"]];

/** A small seeded PRNG, so that every run generates the same bytes. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function userAt(n, random) {
  const status = random() < 0.1 ? "deleted" : "active";
  return {
    id: String(100000 + n),
    email: `user${n}@example.com`,
    firstName: FIRST[n % FIRST.length],
    lastName: LAST[(n * 7) % LAST.length],
    status,
    externalStatus: status === "active" ? "Active" : "Suspended",
    roles: ROLES[n % ROLES.length],
    lastUsedDate: `202${n % 5}-${String(1 + (n % 12)).padStart(2, "0")}-${String(1 + (n % 28)).padStart(2, "0")}`,
  };
}

const indent = (text, pad) => text.replace(/\n/g, `\n${pad}`);

/** A file written in batches of 4096 strings; `bytes()` counts what was written so far. */
function batchedFile(path) {
  const out = createWriteStream(path);
  let bytes = 0;
  let pending = [];
  return {
    bytes: () => bytes,
    async write(s) {
      pending.push(s);
      bytes += Buffer.byteLength(s);
      if (pending.length >= 4096) {
        if (!out.write(pending.join(""))) await once(out, "drain");
        pending = [];
      }
    },
    async close() {
      out.end(pending.join(""));
      await once(out, "finish");
      return bytes;
    },
  };
}

/** A number in [0, 1) that only `n` and `seed` decide: a user's draw, whatever order it is read in. */
function unitOf(n, seed) {
  let t = (Math.imul(n ^ 0x5bd1e995, 0x9e3779b1) + seed) >>> 0;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/**
 * How a JSON file is laid out: `pretty` (two spaces an indent), `user-a-line` (pretty, but every
 * user compact on a line of its own) or `one-line` (the whole document compact, no newline).
 */
function jsonLayout(layout) {
  const nl = layout === "one-line" ? "" : "\n";
  const pad = (depth) => (layout === "one-line" ? "" : "  ".repeat(depth));
  const pretty = (value, depth) =>
    layout === "one-line" ? JSON.stringify(value) : indent(JSON.stringify(value, null, 2), pad(depth));
  const key = (name) => `"${name}":${layout === "one-line" ? "" : " "}`;
  return {
    open: `{${nl}${pad(1)}${key("users")}[${nl}`,
    between: `,${nl}`,
    user: (user) => `${pad(2)}${layout === "user-a-line" ? JSON.stringify(user) : pretty(user, 2)}`,
    middle: `${nl}${pad(1)}],${nl}${pad(1)}${key("licenses")}[${nl}`,
    license: (l) =>
      `${pad(2)}{${nl}${pad(3)}${key("name")}"Plan ${l}",${nl}${pad(3)}${key("pricePerUser")}${500 + l * 100},${nl}${pad(3)}${key("unassignedAmount")}${l},${nl}${pad(3)}${key("users")}[${nl}`,
    licenseUser: (holder) => `${pad(4)}${pretty(holder, 4)}`,
    licenseEnd: `${nl}${pad(3)}]${nl}${pad(2)}}`,
    close: `${nl}${pad(1)}]${nl}}\n`,
  };
}

/**
 * Writes a data file of about `targetBytes` to `path`, users then licenses, laid out as `layout`
 * (see jsonLayout), its licenses held as `holders` says:
 * - `spread` (the default): `userShare` of the bytes users, the rest license users spread over
 *   `licenses` licenses, each a run of users from a random one;
 * - `every-user`: every user in one to three of `licenses` licenses, so that the license users
 *   weigh about what the users do (with `slimUsers`, users of id, email, names, status and date);
 * - `few-each`: `licenses` licenses of one to five users each, the rest of the bytes users.
 * Resolves to counts. The same options and seed give the same bytes.
 */
export async function generateJson(
  path,
  targetBytes,
  {
    licenses = 20,
    seed = 42,
    layout = "pretty",
    holders = "spread",
    userShare = layout === "user-a-line" ? 0.85 : 0.7,
    slimUsers = false,
  } = {},
) {
  const random = prng(seed);
  const shape = jsonLayout(layout);
  const file = batchedFile(path);
  const write = file.write;
  const holder = (n) => ({
    email: `user${n}@example.com`,
    licenseStatus: random() < 0.05 ? "inactive" : "active",
  });
  // the bytes a license user takes, to size the users so that the file ends near targetBytes
  const holderBytes = Buffer.byteLength(
    `${shape.between}${shape.licenseUser({ email: "user99999@example.com", licenseStatus: "active" })}`,
  );
  const licenseBytes = Buffer.byteLength(shape.license(licenses)) + Buffer.byteLength(shape.licenseEnd);
  const enough = {
    spread: () => file.bytes() >= targetBytes * userShare,
    "every-user": (users) => file.bytes() + users * 2 * holderBytes >= targetBytes,
    "few-each": () => file.bytes() + licenses * (licenseBytes + 3 * holderBytes) >= targetBytes,
  }[holders];
  await write(shape.open);
  let users = 0;
  let userBytes = 0;
  while (!enough(users)) {
    const full = userAt(users, random);
    const { id, email, firstName, lastName, status, lastUsedDate } = full;
    const user = slimUsers ? { id, email, firstName, lastName, status, lastUsedDate } : full;
    const text = `${users ? shape.between : ""}${shape.user(user)}`;
    userBytes += Buffer.byteLength(text);
    await write(text);
    users++;
  }
  await write(shape.middle);
  const before = file.bytes();
  // 90: the bytes a pretty license user was reckoned at when today's files were made
  const perHolder = layout === "one-line" ? holderBytes : 90;
  const perLicense = Math.max(1, Math.floor((targetBytes - file.bytes()) / perHolder / licenses));
  // the users of license `l`, in order: every-user gives user n the licenses (n + 7j) % licenses, j < 1–3
  const holdersOf = {
    *spread() {
      const start = Math.floor(random() * users);
      for (let k = 0; k < Math.min(perLicense, users); k++) yield (start + k) % users;
    },
    *"every-user"(l) {
      for (let n = 0; n < users; n++) {
        const held = 1 + Math.floor(unitOf(n, seed) * 3);
        const j = [0, 1, 2].find((j) => (n + 7 * j) % licenses === l);
        if (j !== undefined && j < held) yield n;
      }
    },
    *"few-each"() {
      const start = Math.floor(random() * users);
      const count = Math.min(1 + Math.floor(random() * 5), users);
      for (let k = 0; k < count; k++) yield (start + k) % users;
    },
  }[holders];
  let licenseUsers = 0;
  for (let l = 0; l < licenses; l++) {
    await write(`${l ? shape.between : ""}${shape.license(l)}`);
    let k = 0;
    for (const n of holdersOf(l)) {
      await write(`${k++ ? shape.between : ""}${shape.licenseUser(holder(n))}`);
      licenseUsers++;
    }
    await write(shape.licenseEnd);
  }
  const licensesBytes = file.bytes() - before;
  await write(shape.close);
  const bytes = await file.close();
  return { bytes, users, licenses, licenseUsers, userBytes, licensesBytes };
}

export const CSV_HEADER =
  "email,id,firstName,lastName,status,externalStatus,roles,lastUsedDate,licenseName,licenseStatus,pricePerUser,unassignedAmount";

const csvCell = (v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * Writes a CSV data file of about `targetBytes` to `path`, as an HR export writes it: one row
 * per user–license pair with the user columns repeated (users hold 0–3 of `licenses` licenses),
 * rows of a user together; with `held: "one"`, every user on one row of one license (the most
 * users a file of that size can hold); with `held: "none"`, a row a user and no license.
 * Resolves to counts.
 */
export async function generateCsv(
  path,
  targetBytes,
  { licenses = 20, seed = 7, held: holding = "0-3" } = {},
) {
  const random = prng(seed);
  const file = batchedFile(path);
  const write = file.write;
  await write(`${CSV_HEADER}\n`);
  let users = 0;
  let rows = 0;
  while (file.bytes() < targetBytes) {
    const u = userAt(users, random);
    const userCells = [
      u.email,
      u.id,
      u.firstName,
      u.lastName,
      u.status,
      u.externalStatus,
      u.roles.join(";"),
      u.lastUsedDate,
    ]
      .map(csvCell)
      .join(",");
    const held = holding === "one" ? 1 : holding === "none" ? 0 : Math.floor(random() * 4);
    if (held === 0) {
      await write(`${userCells},,,,\n`);
      rows++;
    }
    for (let k = 0; k < held; k++) {
      const l = (users * 7 + k * 5) % licenses;
      const status = random() < 0.05 ? "inactive" : "active";
      await write(`${userCells},Plan ${l},${status},${500 + l * 100},${l}\n`);
      rows++;
    }
    users++;
  }
  const bytes = await file.close();
  return { bytes, users, rows };
}

/** The header of the Microsoft 365 admin center's export of active users (its newer layout). */
export const M365_HEADER =
  "Display name,DirSyncEnabled,User principal name,Object Id,First name,Last name,When created,Soft deletion time stamp,Title,Department,Preferred data location,City,CountryOrRegion,Office,StateOrProvince,Usage location,Last dirsync time,Block credential,Licenses,Password never expires,Last password change time stamp,Mobile Phone,Phone number,Postal code,Preferred language,Street address,Fax,Proxy addresses";

/**
 * Writes an export of about `targetBytes` in a built-in profile's layout to `path` — Microsoft
 * 365's active users: a row a user, `Block credential` for the status, the licenses in one cell
 * joined by `+` (`Unlicensed` for none) — and the same users in the service's layout to
 * `canonicalPath` (a row a user–license pair, the status and the externalStatus the profile
 * reads). Resolves to counts.
 */
export async function generateExport(path, canonicalPath, targetBytes, { licenses = 20, seed = 11 } = {}) {
  const random = prng(seed);
  const file = batchedFile(path);
  const canonical = batchedFile(canonicalPath);
  await file.write(`${M365_HEADER}\n`);
  await canonical.write(`${CSV_HEADER}\n`);
  let users = 0;
  while (file.bytes() < targetBytes) {
    const u = userAt(users, random);
    const held = Math.floor(random() * 4);
    const names = Array.from({ length: held }, (_, k) => `Plan ${(users * 7 + k * 5) % licenses}`);
    const blocked = u.status === "deleted";
    await file.write(
      `${[
        `${u.firstName} ${u.lastName}`,
        "",
        u.email,
        u.id,
        u.firstName,
        u.lastName,
        "2022-03-18 19:49:35Z",
        "",
        "Engineer",
        "R&D",
        "",
        "London",
        "United Kingdom",
        "",
        "",
        "GB",
        "",
        blocked ? "True" : "False",
        held > 0 ? names.join("+") : "Unlicensed",
        "False",
        "2022-03-18 19:49:35Z",
        "",
        "",
        "",
        "en-GB",
        "",
        "",
        `SMTP:${u.email}`,
      ]
        .map(csvCell)
        .join(",")}\n`,
    );
    const userCells = [
      u.email,
      u.id,
      u.firstName,
      u.lastName,
      u.status,
      blocked ? "Sign-in blocked" : "Sign-in allowed",
      "",
      "",
    ]
      .map(csvCell)
      .join(",");
    if (held === 0) await canonical.write(`${userCells},,,,\n`);
    for (const name of names) await canonical.write(`${userCells},${name},,,\n`);
    users++;
  }
  const bytes = await file.close();
  const canonicalBytes = await canonical.close();
  return { bytes, users, canonicalBytes };
}

/**
 * Writes the rows of generateCsv as an Excel workbook would hold them — ids and prices as
 * numbers, lastUsedDate as a date cell, text in the shared strings table — to `path` (exceljs's
 * streaming writer), and the same rows as CSV to `csvPath`, until the workbook is about
 * `targetBytes`: a first small workbook measures the bytes a row takes. Resolves to counts.
 */
export async function generateXlsx(path, csvPath, targetBytes, { licenses = 20, seed = 7 } = {}) {
  const sample = await xlsxRows(path, null, 50_000, { licenses, seed });
  const { statSync } = await import("node:fs");
  const perRow = statSync(path).size / sample.rows;
  const counts = await xlsxRows(path, csvPath, Math.round(targetBytes / perRow), { licenses, seed });
  return { ...counts, bytes: statSync(path).size, csvBytes: statSync(csvPath).size };
}

async function xlsxRows(path, csvPath, maxRows, { licenses, seed }) {
  const { default: ExcelJS } = await import("exceljs");
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: path,
    useSharedStrings: true,
    useStyles: true,
  });
  const sheet = book.addWorksheet("Users", { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.columns = CSV_HEADER.split(",").map((header) => ({ header, key: header }));
  sheet.getColumn("lastUsedDate").numFmt = "yyyy-mm-dd";
  const csv = csvPath ? batchedFile(csvPath) : null;
  await csv?.write(`${CSV_HEADER}\n`);
  const random = prng(seed);
  let users = 0;
  let rows = 0;
  const add = async (cells) => {
    sheet.addRow(cells).commit();
    await csv?.write(
      `${cells.map((c) => (c instanceof Date ? c.toISOString().slice(0, 10) : csvCell(String(c)))).join(",")}\n`,
    );
    rows++;
  };
  while (rows < maxRows) {
    const u = userAt(users, random);
    const date = u.lastUsedDate ? new Date(`${u.lastUsedDate}T00:00:00Z`) : "";
    const id = /^\d+$/.test(u.id ?? "") ? Number(u.id) : (u.id ?? "");
    const user = [u.email, id, u.firstName, u.lastName, u.status, u.externalStatus, u.roles.join(";"), date];
    const held = Math.floor(random() * 4);
    if (held === 0) await add([...user, "", "", "", ""]);
    for (let k = 0; k < held; k++) {
      const l = (users * 7 + k * 5) % licenses;
      const status = random() < 0.05 ? "inactive" : "active";
      await add([...user, `Plan ${l}`, status, 500 + l * 100, l]);
    }
    users++;
  }
  sheet.commit();
  await book.commit();
  await csv?.close();
  return { users, rows };
}
