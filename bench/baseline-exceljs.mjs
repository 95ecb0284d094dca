// The workbook baseline of `npm run bench`: exceljs's streaming reader (WorkbookReader) reading
// every row of every worksheet of the workbook at argv[2], its shared strings resolved, and
// nothing else done with them: what merely reading a workbook costs with a well-kept library.

import ExcelJS from "exceljs";

const reader = new ExcelJS.stream.xlsx.WorkbookReader(process.argv[2], {
  sharedStrings: "cache",
  styles: "cache",
  hyperlinks: "ignore",
  worksheets: "emit",
});
let rows = 0;
for await (const sheet of reader) {
  for await (const _row of sheet) rows++;
}
process.stdout.write(`${rows}\n`);
