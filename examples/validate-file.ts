import { validateFile } from "syncfile";

const report = await validateFile("fixtures/invalid/user.email.format.json");
console.log(report.valid, report.counts.error);
for (const finding of report.findings) {
  console.log(`${finding.line}:${finding.column} ${finding.code} ${finding.pointer}`);
}
