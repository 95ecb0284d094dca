// What a file is when its first bytes say it is not text: a ZIP archive (an Excel workbook is
// one), an old binary Office file (.xls), a PDF. The readers say so plainly instead of
// reporting a syntax error at 1:1.

/** A kind of file recognised by its first bytes, and what to do with it. */
export interface FileSignature {
  /** What the file is, as a sentence's subject: "an Excel workbook or another ZIP archive". */
  what: string;
  /** How to get a data file from it. */
  hint: string;
}

const SIGNATURES: readonly (FileSignature & { magic: readonly number[] })[] = [
  {
    magic: [0x50, 0x4b, 0x03, 0x04],
    what: "a ZIP archive, as an Excel workbook is, not JSON or CSV text",
    hint: "if it is an Excel workbook, name it .xlsx or add --input-format xlsx; otherwise unzip it and validate the file inside",
  },
  {
    magic: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    what: "an old binary Office file (an Excel .xls workbook, or a password-protected .xlsx), not JSON or CSV text",
    hint: "open it in Excel or LibreOffice and save it as Excel Workbook (.xlsx) without a password, or as CSV UTF-8",
  },
  {
    magic: [0x25, 0x50, 0x44, 0x46, 0x2d],
    what: "a PDF document, not JSON or CSV text",
    hint: "export the data from the application that made the PDF as CSV or JSON",
  },
];

/** The signature `bytes` (the start of a file) begin with, or null. */
export function signatureOf(bytes: Uint8Array): FileSignature | null {
  const found = SIGNATURES.find((s) => s.magic.every((b, k) => bytes[k] === b));
  return found ? { what: found.what, hint: found.hint } : null;
}

/** Whether `bytes` are too few to tell yet: the start of a signature, but shorter. */
export function mayBeSignature(bytes: Uint8Array): boolean {
  return SIGNATURES.some(
    (s) => bytes.length < s.magic.length && s.magic.every((b, k) => k >= bytes.length || bytes[k] === b),
  );
}
