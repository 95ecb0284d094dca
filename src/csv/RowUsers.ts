// The users of rows, numbered where the rows are parsed (the worker of readCsvParallel): the
// rows as the assembler will see them (CsvAssembler.row), each one it takes a user from told
// its user's number, and whether the row defines that user. The emails are kept here.

import { HeaderCells } from "./_HeaderCells.js";
import { EmailNumbers } from "./_UserNumbers.js";
import type { CsvHeader, CsvRow, CsvSink } from "./CsvReader.js";

/** A CSV sink (behind a CsvRows) that numbers each row's user; call `dispose()` at the end. */
export class RowUsers implements CsvSink {
  // this thread allocates little, so its garbage waits: the emails' runs reuse their arrays
  readonly #numbers = new EmailNumbers(1);
  readonly #told: (user: number, isNew: boolean) => void;
  #cells: HeaderCells | null = null;

  /** `told`: receives the user of each row the assembler takes a user from, in row order. */
  constructor(told: (user: number, isNew: boolean) => void) {
    this.#told = told;
  }

  header(header: CsvHeader): void {
    this.#cells = new HeaderCells(header);
  }

  row(row: CsvRow): void {
    const cells = this.#cells as HeaderCells;
    const email = cells.cell(row, "email");
    if (email === "" || !cells.isRow(row, email, cells.licenseCell(row), cells.cell(row, "licenseStatus")))
      return;
    const user = this.#numbers.user(email);
    this.#told(user, this.#numbers.isNew);
  }

  finding(): void {} // the assembler's thread reports the header's and the rows' problems itself

  /** Deletes temporary files. */
  dispose(): void {
    this.#numbers.dispose();
  }
}
