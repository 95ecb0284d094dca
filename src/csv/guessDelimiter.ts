// Which delimiter a CSV-like text uses, told from its first lines: Excel writes commas, or
// semicolons where the decimal point is a comma, or tabs ("Unicode Text"); some systems pipes.
// The delimiter is the one that splits the header and the lines after it into the same number
// of cells — a comma in a quoted cell or in a name ("Tanaka, Yuki") of a tab-separated file
// does not make it comma-separated.

/** The delimiters told apart, in the order preferred when they fit as well. */
const CANDIDATES = [",", ";", "\t", "|"] as const;

/**
 * The delimiter of `text`, the start of a file whose records end with `recordDelimiter`:
 * `complete` when it is the whole file (its last record counts though no line break ends it).
 * For each candidate, its header is the first record it splits into more than one cell (a title
 * above the header is one cell); each later record of as many cells counts for it, each of
 * another count against it. The best count wins; then the earlier header, the wider header,
 * the order of CANDIDATES. A comma when none splits any record.
 */
export function guessDelimiter(text: string, recordDelimiter: string, complete: boolean): string {
  const records = splitRecords(text, recordDelimiter, complete).filter((r) => r.trim() !== "");
  let best: { delimiter: string; score: number; header: number; width: number } | null = null;
  for (const delimiter of CANDIDATES) {
    const widths = records.map((record) => cellCount(record, delimiter));
    const header = widths.findIndex((w) => w > 1);
    if (header === -1) continue;
    const width = widths[header] as number;
    const score = widths.slice(header + 1).reduce((sum, w) => sum + (w === width ? 1 : -1), 0);
    const better =
      best === null ||
      score > best.score ||
      (score === best.score && (header < best.header || (header === best.header && width > best.width)));
    if (better) best = { delimiter, score, header, width };
  }
  return best?.delimiter ?? ",";
}

/** The records of `text`, split at record delimiters outside quotes; an unended last one only when `complete`. */
function splitRecords(text: string, recordDelimiter: string, complete: boolean): string[] {
  const records: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (!quoted && text.startsWith(recordDelimiter, i)) {
      records.push(text.slice(start, i));
      i += recordDelimiter.length - 1;
      start = i + 1;
    }
  }
  if (complete && start < text.length) records.push(text.slice(start));
  return records;
}

/** How many cells `record` has when split at `delimiter` outside quotes. */
function cellCount(record: string, delimiter: string): number {
  let cells = 1;
  let quoted = false;
  for (const c of record) {
    if (c === '"') quoted = !quoted;
    else if (c === delimiter && !quoted) cells++;
  }
  return cells;
}
