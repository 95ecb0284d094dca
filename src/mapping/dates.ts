// The date forms of a mapping: `YYYY/MM/DD`, `DD MMM YYYY`, `M/D/YYYY`… compiled once into a
// regular expression each. A time after the date (`14:23:11 UTC`, `8:00:00 AM`) is read and left
// out: the service keeps the day a user last used the application. Written by hand: the date
// libraries parse far more than an export writes, and would accept what is not a date here.

const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];

/** A time after the date: hours and minutes, seconds and fractions, AM or PM, a zone. */
const TIME = String.raw`(?:(?:\s+|T)\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s*[AaPp]\.?[Mm]\.?)?(?:\s*(?:Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?|\(?[A-Z]{2,5}\)?))?)?`;

/** The always-read form: YYYY-MM-DD, alone or starting an ISO date-time. */
const ISO = new RegExp(String.raw`^(\d{4})-(\d{2})-(\d{2})${TIME}$`);

type Part = "year" | "month" | "monthName" | "day";

/** One form compiled: its expression, and which capture is which part. */
interface Form {
  text: string;
  pattern: RegExp;
  parts: Part[];
}

/** Compiles a form of YYYY, MM or M, MMM, DD or D and the separators `. / , -` and space. */
export function compileForm(form: string): Form {
  const parts: Part[] = [];
  let source = "^";
  const tokens = form.match(/YYYY|MMM|MM|M|DD|D|\s+|[^YMD\s]/g) ?? [];
  for (const token of tokens) {
    if (token === "YYYY") {
      source += String.raw`(\d{4})`;
      parts.push("year");
    } else if (token === "MMM") {
      source += String.raw`([A-Za-z]{3,9})\.?`;
      parts.push("monthName");
    } else if (token === "MM" || token === "M") {
      source += token === "MM" ? String.raw`(\d{2})` : String.raw`(\d{1,2})`;
      parts.push("month");
    } else if (token === "DD" || token === "D") {
      source += token === "DD" ? String.raw`(\d{2})` : String.raw`(\d{1,2})`;
      parts.push("day");
    } else if (/^\s+$/.test(token)) {
      source += String.raw`\s+`;
    } else {
      source += token.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  return { text: form, pattern: new RegExp(`${source}${TIME}$`), parts };
}

/** Reads dates in the given forms (and YYYY-MM-DD, always) as YYYY-MM-DD. */
export class DateForms {
  readonly #forms: Form[];
  /** The forms, for messages. */
  readonly names: readonly string[];

  constructor(forms: readonly string[]) {
    this.#forms = forms.map(compileForm);
    this.names = ["YYYY-MM-DD", ...forms];
  }

  /** The date `text` stands for, as YYYY-MM-DD; null when it is in none of the forms or no real day. */
  read(text: string): string | null {
    const iso = ISO.exec(text);
    if (iso) return day(Number(iso[1]), Number(iso[2]), Number(iso[3]));
    for (const form of this.#forms) {
      const match = form.pattern.exec(text);
      if (!match) continue;
      let year = 0;
      let month = 0;
      let date = 0;
      form.parts.forEach((part, i) => {
        const value = match[i + 1] as string;
        if (part === "year") year = Number(value);
        else if (part === "day") date = Number(value);
        else if (part === "month") month = Number(value);
        else month = monthNumber(value);
      });
      const read = day(year, month, date);
      if (read !== null) return read;
    }
    return null;
  }
}

/** 1–12 for an English month name or its abbreviation (Sept too), in any case; 0 otherwise. */
function monthNumber(name: string): number {
  const lower = name.toLowerCase();
  const i = MONTHS.findIndex((full) => full.startsWith(lower.slice(0, 3)));
  if (i < 0) return 0;
  return lower.length === 3 || MONTHS[i] === lower || lower === "sept" ? i + 1 : 0;
}

/** YYYY-MM-DD of a real day in the years 0001–9999, or null. */
function day(year: number, month: number, date: number): string | null {
  if (year < 1 || month < 1 || month > 12 || date < 1) return null;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1] as number;
  if (date > days) return null;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(date).padStart(2, "0")}`;
}
