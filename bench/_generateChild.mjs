// Generates one data file in its own process and prints its counts as JSON: a generator's
// memory (exceljs holds a workbook's shared strings) must not count in the peak RSS of the
// runs measured after it, which Linux would otherwise report for the bench's children.
//   node bench/_generateChild.mjs SHAPE|json-next|xlsx|export PATH BYTES [CSV_PATH]
// SHAPE: a name of _shapes.mjs (json-pretty, csv-licenses…).

import { shapeNamed } from "./_shapes.mjs";
import { generateCsv, generateExport, generateJson, generateXlsx } from "./generate.mjs";

const [kind, path, bytes, csvPath] = process.argv.slice(2);
const target = Number(bytes);
const shape = shapeNamed(kind);
const counts = shape
  ? shape.format === "json"
    ? await generateJson(path, target, shape.options)
    : await generateCsv(path, target, shape.options)
  : kind === "json-next"
    ? await generateJson(path, target, { seed: 43 })
    : kind === "export"
      ? await generateExport(path, csvPath, target)
      : await generateXlsx(path, csvPath, target);
process.stdout.write(JSON.stringify(counts));
