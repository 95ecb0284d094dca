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

/**
 * Writes a pretty-printed data file of about `targetBytes` to `path`: 70% users, 30% license
 * users spread over `licenses` licenses (with `compact`, a user a line and 85% users). Resolves to counts.
 */
export async function generateJson(path, targetBytes, { licenses = 20, seed = 42, compact = false } = {}) {
  const random = prng(seed);
  const file = batchedFile(path);
  const write = file.write;
  await write('{\n  "users": [\n');
  let users = 0;
  // compact: one user a line, without indentation, and 85 % of the bytes users (the most users)
  while (file.bytes() < targetBytes * (compact ? 0.85 : 0.7)) {
    const user = userAt(users, random);
    await write(
      `${users ? ",\n" : ""}    ${compact ? JSON.stringify(user) : indent(JSON.stringify(user, null, 2), "    ")}`,
    );
    users++;
  }
  await write('\n  ],\n  "licenses": [\n');
  const perLicense = Math.max(1, Math.floor((targetBytes - file.bytes()) / 90 / licenses));
  let licenseUsers = 0;
  for (let l = 0; l < licenses; l++) {
    await write(
      `${l ? ",\n" : ""}    {\n      "name": "Plan ${l}",\n      "pricePerUser": ${500 + l * 100},\n      "unassignedAmount": ${l},\n      "users": [\n`,
    );
    const count = Math.min(perLicense, users);
    const start = Math.floor(random() * users);
    for (let k = 0; k < count; k++) {
      const email = `user${(start + k) % users}@example.com`;
      const status = random() < 0.05 ? "inactive" : "active";
      await write(
        `${k ? ",\n" : ""}        {\n          "email": "${email}",\n          "licenseStatus": "${status}"\n        }`,
      );
      licenseUsers++;
    }
    await write("\n      ]\n    }");
  }
  await write("\n  ]\n}\n");
  const bytes = await file.close();
  return { bytes, users, licenses, licenseUsers };
}

export const CSV_HEADER =
  "email,id,firstName,lastName,status,externalStatus,roles,lastUsedDate,licenseName,licenseStatus,pricePerUser,unassignedAmount";

const csvCell = (v) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/**
 * Writes a CSV data file of about `targetBytes` to `path`, as an HR export writes it: one row
 * per user–license pair with the user columns repeated (users hold 0–3 of `licenses` licenses),
 * rows of a user together; with `onePerUser`, every user on one row of one license (the most
 * users a file of that size can hold). Resolves to counts.
 */
export async function generateCsv(path, targetBytes, { licenses = 20, seed = 7, onePerUser = false } = {}) {
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
    const held = onePerUser ? 1 : Math.floor(random() * 4);
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
