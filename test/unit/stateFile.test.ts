// The one helper of the files syncfile keeps between runs: written beside the name and renamed,
// never read or written through a link at the name, and a folder that cannot hold them found
// before the work they would record.

import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  copyStateFile,
  prepareStateFolder,
  readStateFile,
  stateFileExists,
  writeStateFile,
} from "../../src/bytes/stateFile.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-state-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const folder = () => mkdtempSync(join(work, `${dirs++}-`));

describe("writeStateFile and copyStateFile", () => {
  it("replace a link at the name, leaving its target as it was", async () => {
    const dir = folder();
    const target = join(dir, "target");
    writeFileSync(target, "precious\n");
    symlinkSync(target, join(dir, "state.json"));
    symlinkSync(target, join(dir, "copy.json"));
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling.json"));
    await writeStateFile(join(dir, "state.json"), '{"a":1}');
    await copyStateFile(join(dir, "state.json"), join(dir, "copy.json"));
    await writeStateFile(join(dir, "dangling.json"), "{}");
    expect(readFileSync(target, "utf8")).toBe("precious\n");
    for (const name of ["state.json", "copy.json", "dangling.json"]) {
      expect(lstatSync(join(dir, name)).isFile()).toBe(true);
    }
    expect(readFileSync(join(dir, "copy.json"), "utf8")).toBe('{"a":1}');
    expect(readdirSync(dir).sort()).toEqual(["copy.json", "dangling.json", "state.json", "target"]);
  });

  it("leave the old state and no temporary file when the folder is gone", async () => {
    const dir = folder();
    await expect(writeStateFile(join(dir, "missing", "state.json"), "{}")).rejects.toMatchObject({
      code: "ENOENT",
      path: join(dir, "missing", "state.json"),
    });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe("readStateFile and stateFileExists", () => {
  it("say there is none, read a file, and refuse a link (ELOOP) or a folder", async () => {
    const dir = folder();
    writeFileSync(join(dir, "state.json"), "{}");
    writeFileSync(join(dir, "a-file"), "");
    symlinkSync(join(dir, "state.json"), join(dir, "link.json"));
    symlinkSync(join(dir, "nowhere"), join(dir, "dangling.json"));
    mkdirSync(join(dir, "folder.json"));

    expect(await readStateFile(join(dir, "none.json"))).toBeNull();
    expect(await readStateFile(join(dir, "a-file", "state.json"))).toBeNull();
    expect(await readStateFile(join(dir, "state.json"))).toBe("{}");
    for (const name of ["link.json", "dangling.json"]) {
      await expect(readStateFile(join(dir, name))).rejects.toMatchObject({ code: "ELOOP" });
      await expect(stateFileExists(join(dir, name))).rejects.toMatchObject({ code: "ELOOP" });
    }
    await expect(readStateFile(join(dir, "folder.json"))).rejects.toMatchObject({
      code: "EISDIR",
      path: join(dir, "folder.json"),
    });
    await expect(stateFileExists(join(dir, "folder.json"))).rejects.toMatchObject({ code: "EISDIR" });
    expect(await stateFileExists(join(dir, "none.json"))).toBe(false);
    expect(await stateFileExists(join(dir, "state.json"))).toBe(true);
  });
});

describe("prepareStateFolder", () => {
  it("makes the folder, leaves nothing in it, and names it when a file is in the way", async () => {
    const dir = folder();
    await prepareStateFolder(join(dir, "state", "pushed"));
    expect(readdirSync(join(dir, "state", "pushed"))).toEqual([]);
    writeFileSync(join(dir, "file"), "");
    for (const path of [join(dir, "file"), join(dir, "file", "pushed")]) {
      await expect(prepareStateFolder(path)).rejects.toMatchObject({ code: "ENOTDIR", path });
    }
  });
});
