import { Validation } from "syncfile";

// the push-based core behind every validate function: feed bytes as they arrive
const validation = new Validation({ file: "chunks.json", maxErrors: 10 });
const encoder = new TextEncoder();
validation.push(encoder.encode('{"users": [{"email": "ada@exam'));
validation.push(encoder.encode('ple.com"}], "licenses": []}'));
const report = validation.end();
console.log(report.valid, report.stats.users, report.stats.bytes);
