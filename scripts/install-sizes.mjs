// How much each package installs: every workspace packed, then each installed alone into an
// empty folder with --omit=dev (the repository's packages it depends on from their tarballs, as
// npm would fetch them from the registry), and the folder's node_modules measured.
//   npm run build && node scripts/install-sizes.mjs

import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { diskUsageOf, installInto, packAll, sizeOf, WORKSPACES } from "./packages.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));

/** `name` and the repository's packages it depends on, all the way down. */
function withSiblings(name, found = new Set()) {
  found.add(name);
  const manifest = JSON.parse(readFileSync(join(root, WORKSPACES[name].dir, "package.json"), "utf8"));
  for (const dependency of Object.keys(manifest.dependencies ?? {})) {
    if (dependency in WORKSPACES && !found.has(dependency)) withSiblings(dependency, found);
  }
  return found;
}

const tarballs = await packAll(mkdtempSync(join(tmpdir(), "syncfile-packs-")));
const MB = 1024 * 1024;
console.log("| package | installed alone: node_modules, its files' bytes | on disk (du) | its tarball |");
console.log("|---|---:|---:|---:|");
for (const name of Object.keys(WORKSPACES)) {
  const folder = await installInto([...withSiblings(name)].map((n) => tarballs[n]));
  const modules = join(folder, "node_modules");
  const [size, disk, packed] = [
    sizeOf(modules) / MB,
    diskUsageOf(modules) / MB,
    sizeOf(tarballs[name]) / 1024,
  ];
  console.log(`| \`${name}\` | ${size.toFixed(1)} MB | ${disk.toFixed(1)} MB | ${packed.toFixed(0)} KB |`);
}
