// What a run's comparison found, kept with its record: every change as a JSON line (as
// `syncfile diff --format json` writes them) and the diff's HTML page, in the job's state
// folder under runs/. The lines are written as they come, a buffer at a time, so that a run
// that changes millions of users holds a page of them, not all; the page lists the first of
// each kind. Both are saved through the helper of state files once the comparison is over.

import { closeSync, openSync, writeSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { copyStateFile, prepareStateFolder, writeStateFile } from "syncfile/internal/bytes/stateFile.js";
import type { Change } from "syncfile/internal/diff/Change.js";
import { CHANGE_KINDS } from "syncfile/internal/diff/Change.js";
import { diffHtml } from "syncfile/internal/diff/formatDiff.js";
import { RUN_FILES, runFiles } from "./runHistory.js";

/** How many changes of each kind a run's page lists. */
const LISTED = 500;

/** The changes of one run, as the comparison tells them. */
export class RunChanges {
  readonly #path: string;
  #fd: number | null = null;
  #buffer: string[] = [];
  #buffered = 0;
  #any = false;
  readonly #listed = new Map<Change["kind"], Change[]>(CHANGE_KINDS.map((k) => [k, []]));

  /** Changes written into `folder` (the run's own) until they are kept. */
  constructor(folder: string) {
    this.#path = join(folder, "changes.jsonl");
  }

  /** One change (a comparison's callback). */
  readonly add = (change: Change): void => {
    this.#any = true;
    const list = this.#listed.get(change.kind) as Change[];
    if (list.length < LISTED) list.push(change);
    const line = `${JSON.stringify(change)}\n`;
    this.#buffer.push(line);
    this.#buffered += line.length;
    if (this.#buffered >= 1 << 16) this.#flush();
  };

  #flush(): void {
    this.#fd ??= openSync(this.#path, "wx", 0o600);
    writeSync(this.#fd, this.#buffer.join(""));
    this.#buffer = [];
    this.#buffered = 0;
  }

  /**
   * Saves the changes and their page as run `id`'s in the state folder `state` (`counts`: the
   * comparison's, `title`: the page's heading); returns where, relative to `state`.
   */
  async keep(
    state: string,
    id: string,
    title: string,
    counts: Record<Change["kind"], number>,
  ): Promise<{ changes: string; report: string }> {
    this.#flush();
    this.close();
    const files = runFiles(id);
    await prepareStateFolder(join(state, RUN_FILES));
    await copyStateFile(this.#path, join(state, files.changes));
    await rm(this.#path, { force: true });
    const rest = `all of them in ${files.changes}`;
    await writeStateFile(join(state, files.report), diffHtml(title, counts, this.#listed, rest));
    return files;
  }

  /** Whether any change was told. */
  get any(): boolean {
    return this.#any;
  }

  close(): void {
    if (this.#fd !== null) closeSync(this.#fd);
    this.#fd = null;
  }
}
