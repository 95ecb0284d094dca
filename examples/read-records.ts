import { readRecords } from "syncfile";

// each user, license and license user as soon as it is parsed, with where it is
for await (const event of readRecords("fixtures/valid/example.json")) {
  if (event.type === "record") {
    const { kind, pointer, loc } = event.record;
    console.log(`${kind.padEnd(11)} ${pointer.padEnd(20)} line ${loc.line}`);
  } else {
    console.log("finding:", event.finding.code, event.finding.message);
  }
}
