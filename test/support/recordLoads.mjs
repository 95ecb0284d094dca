// Loaded with `node --import` by the startup test: every module URL the process loads is
// appended to the file named by SYNCFILE_RECORD_LOADS (module hooks run on a thread of their own).

import { register } from "node:module";

const hooks = `
import { appendFileSync } from "node:fs";
export async function load(url, context, next) {
  appendFileSync(process.env.SYNCFILE_RECORD_LOADS, url + "\\n");
  return next(url, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
