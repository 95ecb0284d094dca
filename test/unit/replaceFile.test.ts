// The one way syncfile publishes a file: a hidden temporary file beside it, renamed (or, to
// create it only when absent, linked) into place; nothing is left behind when writing fails.

import {
  createWriteStream,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { type FileHandle, open, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createFileIfAbsent, replaceFile, temporaryPathBeside } from "../../src/bytes/replaceFile.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-replace-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let dirs = 0;
const folder = () => mkdtempSync(join(work, `${dirs++}-`));
/** Files in `dir`, hidden temporary ones included. */
const listing = (dir: string) => readdirSync(dir).sort();

describe("temporaryPathBeside", () => {
  it("is hidden, in the destination's folder, and new every time", () => {
    const a = temporaryPathBeside("/data/out/users.json");
    expect(dirname(a)).toBe("/data/out");
    expect(basename(a)).toMatch(/^\.users\.json\.[0-9a-f]{12}\.part$/);
    expect(temporaryPathBeside("/data/out/users.json")).not.toBe(a);
    expect(basename(temporaryPathBeside("/data/.state.json"))).toMatch(/^\.state\.json\./);
  });

  it("fits a file system's 255-byte names when the destination's name is that long", () => {
    for (const name of ["a".repeat(255), "é".repeat(127), "😀".repeat(63)]) {
      expect(Buffer.byteLength(basename(temporaryPathBeside(join("/x", name))))).toBeLessThanOrEqual(255);
    }
  });
});

describe("replaceFile", () => {
  it("makes the destination appear only when it is complete", async () => {
    const dir = folder();
    const dest = join(dir, "out.txt");
    const seen: string[][] = [];
    const result = await replaceFile(dest, async (temporary) => {
      expect(dirname(temporary)).toBe(dir);
      await writeFile(temporary, "first half, ", { flag: "wx" });
      seen.push(listing(dir));
      await writeFile(temporary, "second half", { flag: "a" });
      return 42;
    });
    expect(result).toBe(42);
    // half way: only the hidden temporary file, no destination
    expect(seen).toEqual([[expect.stringMatching(/^\.out\.txt\.[0-9a-f]{12}\.part$/)]]);
    expect(listing(dir)).toEqual(["out.txt"]);
    expect(readFileSync(dest, "utf8")).toBe("first half, second half");
  });

  it("leaves an existing destination untouched until the rename, then replaces it", async () => {
    const dir = folder();
    const dest = join(dir, "out.txt");
    writeFileSync(dest, "old");
    await replaceFile(dest, async (temporary) => {
      await writeFile(temporary, "new", { flag: "wx" });
      expect(readFileSync(dest, "utf8")).toBe("old");
    });
    expect(readFileSync(dest, "utf8")).toBe("new");
    expect(listing(dir)).toEqual(["out.txt"]);
  });

  it("on failure removes the temporary file, keeps the destination as it was and throws the error", async () => {
    const dir = folder();
    const fresh = join(dir, "fresh.txt");
    const failure = new Error("disk full");
    await expect(
      replaceFile(fresh, async (temporary) => {
        await writeFile(temporary, "half", { flag: "wx" });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(listing(dir)).toEqual([]);

    const existing = join(dir, "existing.txt");
    writeFileSync(existing, "old");
    await expect(
      replaceFile(existing, async (temporary) => {
        await writeFile(temporary, "half", { flag: "wx" });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(listing(dir)).toEqual(["existing.txt"]);
    expect(readFileSync(existing, "utf8")).toBe("old");
  });

  it("on an abort mid-stream leaves neither a temporary file nor the destination", async () => {
    const dir = folder();
    const abort = new AbortController();
    async function* body() {
      yield Buffer.from("some bytes");
      abort.abort(new Error("stopped"));
      yield Buffer.from("never written");
    }
    await expect(
      replaceFile(join(dir, "download.bin"), (temporary) =>
        pipeline(Readable.from(body()), createWriteStream(temporary, { flags: "wx" }), {
          signal: abort.signal,
        }),
      ),
    ).rejects.toThrow();
    expect(listing(dir)).toEqual([]);
  });

  it("with `when` false removes what was written and leaves the destination as it was", async () => {
    const dir = folder();
    const dest = join(dir, "out.txt");
    writeFileSync(dest, "old");
    const result = await replaceFile(
      dest,
      async (temporary) => {
        await writeFile(temporary, "refused", { flag: "wx" });
        return { valid: false };
      },
      { when: (r) => r.valid },
    );
    expect(result).toEqual({ valid: false });
    expect(listing(dir)).toEqual(["out.txt"]);
    expect(readFileSync(dest, "utf8")).toBe("old");
  });

  it("fails like a write when the folder does not exist, leaving nothing", async () => {
    const dir = folder();
    await expect(
      replaceFile(join(dir, "missing", "out.txt"), (temporary) => writeFile(temporary, "x", { flag: "wx" })),
    ).rejects.toMatchObject({ code: "ENOENT" });
    expect(listing(dir)).toEqual([]);
  });
});

describe("createFileIfAbsent", () => {
  it("creates the file complete, with its mode, and leaves no temporary file", () => {
    const dir = folder();
    const path = join(dir, "secret");
    expect(createFileIfAbsent(path, "s3cret\n", { mode: 0o600 })).toBe(true);
    expect(readFileSync(path, "utf8")).toBe("s3cret\n");
    if (process.platform !== "win32") expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(listing(dir)).toEqual(["secret"]);
  });

  it("never replaces a file that is there: the first one wins", () => {
    const dir = folder();
    const path = join(dir, "api-key");
    expect(createFileIfAbsent(path, "first\n")).toBe(true);
    expect(createFileIfAbsent(path, "second\n")).toBe(false);
    expect(readFileSync(path, "utf8")).toBe("first\n");
    expect(listing(dir)).toEqual(["api-key"]);
  });

  it("throws what is not 'already there', leaving nothing", () => {
    const dir = folder();
    expect(() => createFileIfAbsent(join(dir, "missing", "secret"), "x")).toThrow(/ENOENT/);
    expect(listing(dir)).toEqual([]);
  });
});

describe("what reaches the disk", () => {
  // a file handle's path, as Linux tells it
  const pathOf = (handle: FileHandle) => readlinkSync(`/proc/self/fd/${handle.fd}`);

  it.skipIf(process.platform !== "linux")(
    "is the whole new file before its rename, and the folder's entry after it (fsync)",
    async () => {
      const dir = folder();
      const path = join(dir, "out.json");
      writeFileSync(path, "old");
      const probe = await open(path, "r");
      const prototype = Object.getPrototypeOf(probe) as { sync: FileHandle["sync"] };
      await probe.close();
      const real = prototype.sync;
      const seen: string[] = [];
      const sync = vi.spyOn(prototype, "sync").mockImplementation(async function (this: FileHandle) {
        const target = pathOf(this);
        const what =
          target === dir
            ? "the folder"
            : basename(target).startsWith(".out.json.")
              ? `the new file (${readFileSync(target, "utf8")})`
              : target;
        seen.push(`${what}, while out.json holds ${readFileSync(path, "utf8")}`);
        return real.call(this);
      });
      try {
        await replaceFile(path, (temporary) => writeFile(temporary, "new"));
      } finally {
        sync.mockRestore();
      }
      expect(seen).toEqual([
        "the new file (new), while out.json holds old",
        "the folder, while out.json holds new",
      ]);
    },
  );
});
