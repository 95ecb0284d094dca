// Completes package-lock.json with the optional platform packages that this machine's npm
// registry does not serve (e.g. @rollup/rollup-darwin-arm64). `npm install` leaves them out
// when it cannot fetch them, and `npm ci` then refuses the lockfile as out of sync. Each
// entry carries its os/cpu/libc, so npm skips it on every other platform without fetching.
// Run after `npm install` changes the lockfile: node scripts/complete-lockfile.mjs

import { readFileSync, writeFileSync } from "node:fs";

const OS = [
  "android",
  "darwin",
  "freebsd",
  "linux",
  "openbsd",
  "openharmony",
  "netbsd",
  "sunos",
  "aix",
  "win32",
  "cygwin",
];
const CPU = ["arm64", "x64", "ia32", "arm", "ppc64", "riscv64", "s390x", "loong64", "mips64el", "wasm32"];

/** os, cpu and libc from a platform package name such as rollup-linux-arm64-musl. */
function platformOf(name) {
  const parts = name.split("/").pop().split("-");
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find((c) => parts.includes(c));
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (os === "linux") entry.libc = [parts.some((p) => p.startsWith("musl")) ? "musl" : "glibc"];
  return entry;
}

const path = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(path, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [location, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const at = `${location ? `${location}/` : ""}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[at] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[hoisted] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platform };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a < b ? -1 : 1)),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform package entries`);
