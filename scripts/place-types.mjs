// The packages' declarations: one `tsc -p tsconfig.build.json` writes those of all of src/ into
// .types/ (one program, seconds; tsup's declaration build took a program a package, 45 s), and
// this gives each package the files of its folders, in its dist/types/, as in src/. A package's
// d.ts names another's modules as its code does (syncfile/internal/X.js: its exports' types).
//   npm run build runs it after tsup.

import { cpSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WORKSPACES } from "./packages.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const types = join(root, ".types");

for (const { dir, folders } of Object.values(WORKSPACES)) {
  const target = join(root, dir, "dist", "types");
  rmSync(target, { recursive: true, force: true });
  for (const folder of folders) {
    if (folder === ".") {
      for (const file of ["index.d.ts", "browser.d.ts"]) cpSync(join(types, file), join(target, file));
    } else if (existsSync(join(types, folder))) {
      cpSync(join(types, folder), join(target, folder), { recursive: true });
    }
  }
}
rmSync(types, { recursive: true, force: true });
