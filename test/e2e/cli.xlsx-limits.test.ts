// `syncfile convert` of a small workbook holding a 200 MB cell: refused at the cell (exit 1), as
// a CSV row too large is, with nothing written — never a JSON document that syncfile itself
// would then refuse (json.record.size).

import { mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { handWorkbook, inlineRow, repeated } from "../support/handWorkbook.js";

describe("syncfile convert of a workbook with a cell larger than the limit", () => {
  it("refuses it at its cell and writes nothing", { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "syncfile-cli-xlsx-limits-"));
    const input = join(dir, "huge-cell.xlsx");
    const rows = [
      inlineRow(1, ["Email", "First name", "Status"]),
      inlineRow(2, ["ada@example.com", "Ada", "active"]),
      '<row r="3"><c r="A3" t="inlineStr"><is><t>bob@example.com</t></is></c><c r="B3"><v>',
      repeated("x".repeat(1 << 20), 200),
      "</v></c></row>",
    ];
    writeFileSync(input, handWorkbook({ rows }));
    const out = join(dir, "users.json");
    const r = await runCli(["convert", input, out]);
    expect(r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("Users!B3");
    expect(r.stdout).toContain("this cell is larger than the limit of 1048576 bytes");
    expect(r.stdout).toContain("xlsx.cell.size");
    expect(readdirSync(dir)).toEqual(["huge-cell.xlsx"]);
  });
});
