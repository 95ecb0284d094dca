import { Conversion, convertWorkbook, Validation } from "syncfile";

// in a web app's page: the same package, by its browser build (Vite, esbuild, webpack take it as it is)
const picked = new Blob([
  "email,firstName,status,licenseName\n",
  "ada@example.com,Ada,active,Pro\n",
  "grace.example.com,Grace,active,Pro\n",
]);
const bytes = new Uint8Array(await picked.arrayBuffer());

// check the file the user picked, before a byte is uploaded
const validation = new Validation({ file: "people.csv" });
validation.push(bytes);
const checked = validation.end();
console.log(checked.valid, checked.findings.map((f) => `${f.code} (row ${f.row})`).join(", "));

// had the user picked a workbook of the same rows: it is read from the Blob, with the same findings
const workbook: Uint8Array[] = [];
const conversion = new Conversion(
  { file: "people.csv", to: "xlsx", force: true },
  { bytes: (b) => workbook.push(b.slice()) },
);
conversion.push(bytes);
conversion.end();
const read = await convertWorkbook(
  new Blob(workbook),
  { file: "people.xlsx", to: "json" },
  { bytes: () => {} },
);
console.log(read.valid, read.findings.map((f) => `${f.code} (${f.cell})`).join(", "));
