// A CSV file's license users checked on two threads at once (the assembler's and
// csvParallel's worker, each with its own licenses: checkedByParser), by the same checks
// as the rest of the file: the first half-million of each thread as their rows come, the rest,
// kept meanwhile, after the last row, license by license (what the checks hold for the
// first part stays bounded). Their findings are collected license by license, and the
// assembler's thread places each license's after the license, where one thread reports them.

import { type CheckContext, checksByKind } from "../checks/Check.js";
import { defaultChecks } from "../checks/defaultChecks.js";
import type { LicenseUserOrder } from "../checks/licenseUsers.js";
import type { CsvRecord } from "../csv/CsvRecord.js";
import type { LicenseUserCheck } from "../csv/RowUsers.js";
import { UserEmails } from "../model/UserEmails.js";
import { type CollectedFindings, type CollectorOptions, ReportCollector } from "../report/ReportCollector.js";
import { findingDetails } from "./_findingDetails.js";

/** License users checked as their rows come (licenses interleaved): this many, at most, on each thread. */
export const AS_ROWS_COME = 512 * 1024;

/** Checks license users, each license's findings collected apart. */
export class LicenseUserChecks implements LicenseUserCheck {
  readonly #options: CollectorOptions;
  // the registry the checks share: a CSV license user is always one of the users (userKnown)
  readonly #emails = new UserEmails();
  readonly #order: LicenseUserOrder = { interleaved: true };
  readonly #checks = defaultChecks(this.#emails, this.#order);
  readonly #licenseUserChecks = checksByKind(this.#checks).licenseUser;
  readonly #asRowsCome: number;
  #checked = 0;
  readonly #collectors: ReportCollector[] = [];
  #collector: ReportCollector | null = null;
  #base = 0;
  #disposed = false;
  readonly #context: CheckContext;

  /** `asRowsCome`: how many license users are checked as their rows come (tests make it small). */
  constructor(options: CollectorOptions, asRowsCome = AS_ROWS_COME) {
    this.#options = options;
    this.#asRowsCome = asRowsCome;
    if (asRowsCome <= 0) this.#order.interleaved = false;
    const self = this;
    this.#context = {
      report: (code, record, spec = {}) =>
        (self.#collector as ReportCollector).add(code, () => findingDetails(record, spec)),
      get recordErrors() {
        return (self.#collector as ReportCollector).errorCount - self.#base;
      },
    };
  }

  get takesAnyOrder(): boolean {
    return this.#order.interleaved;
  }

  /** Runs the checks on the next license user: in row order while `takesAnyOrder`, then license by license. */
  check(record: CsvRecord): void {
    let collector = this.#collectors[record.licenseIndex];
    if (!collector) {
      collector = new ReportCollector(this.#options);
      this.#collectors[record.licenseIndex] = collector;
    }
    this.#collector = collector;
    this.#base = collector.errorCount;
    for (const check of this.#licenseUserChecks) check.record?.(record, this.#context);
    if (++this.#checked >= this.#asRowsCome) this.#order.interleaved = false;
  }

  /** The findings of each license that has any, by license index; releases what the checks hold. */
  end(): (CollectedFindings | undefined)[] {
    this.dispose();
    return Array.from(this.#collectors, (collector) => {
      const collected = collector?.collected();
      return collected && Object.keys(collected.byCode).length > 0 ? collected : undefined;
    });
  }

  /** Deletes temporary files (once: `end` does this itself). */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const check of this.#checks) check.dispose?.();
    this.#emails.dispose();
  }
}
