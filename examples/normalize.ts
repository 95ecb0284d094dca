import { readFile } from "node:fs/promises";
import { type DocumentWriter, normalize } from "syncfile";

// the sync-ready form of each record, handed to your own writer (a database, an API...)
const seen: string[] = [];
const writer: DocumentWriter = {
  user: (user) => seen.push(`user ${JSON.stringify(user)}`),
  license: (_index, license) => seen.push(`license ${JSON.stringify(license)}`),
  licenseUser: (_license, holder) => seen.push(`  holder ${JSON.stringify(holder)}`),
  end: () => seen.push("end"),
};
const csv = await readFile("fixtures/valid/example.csv");
const report = await normalize([csv], writer, {
  format: "csv",
  displayCurrency: "EUR",
  rates: { EUR: "0.9215" },
});
console.log(report.valid);
console.log(seen.slice(2).join("\n"));
