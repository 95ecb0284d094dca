// Generates one data file in its own process and prints its counts as JSON: a generator's
// memory (exceljs holds a workbook's shared strings) must not count in the peak RSS of the
// runs measured after it, which Linux would otherwise report for the bench's children.
//   node bench/_generateChild.mjs json|json-compact|json-next|csv|csv-users|xlsx|export PATH BYTES [CSV_PATH]

import { generateCsv, generateExport, generateJson, generateXlsx } from "./generate.mjs";

const [kind, path, bytes, csvPath] = process.argv.slice(2);
const target = Number(bytes);
const counts =
  kind === "json" || kind === "json-compact" || kind === "json-next"
    ? await generateJson(path, target, {
        compact: kind === "json-compact",
        seed: kind === "json-next" ? 43 : 42,
      })
    : kind === "csv" || kind === "csv-users"
      ? await generateCsv(path, target, { onePerUser: kind === "csv-users" })
      : kind === "export"
        ? await generateExport(path, csvPath, target)
        : await generateXlsx(path, csvPath, target);
process.stdout.write(JSON.stringify(counts));
