import { validateWebStream } from "syncfile";

// any web ReadableStream of bytes: a fetch() body, a Blob, a file picked in a browser form
const body = new Blob(['{"users": [{"email": "ada@example.com", "status": "Active"}]}']).stream();
const report = await validateWebStream(body, { file: "upload.json" });
console.log(report.valid, report.findings[0]?.message, "/", report.findings[0]?.hint);
