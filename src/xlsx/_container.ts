// What a file given as a workbook is when it is not a ZIP: an Office file in the old compound
// container — a binary .xls workbook, or an encrypted (password-protected) .xlsx, told apart by
// the names of the container's streams —, a PDF, text, or nothing at all.

import { type FileHandle, open } from "node:fs/promises";
import type { FileSignature } from "../_internal/fileSignature.js";

const ZIP = [0x50, 0x4b];
const COMPOUND = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];

const starts = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, k) => bytes[k] === b);

/** Why the file at `path` is not a workbook, or null when it is a ZIP archive (read it as one). */
export async function notWorkbook(path: string): Promise<FileSignature | null> {
  const file = await open(path, "r");
  try {
    const head = new Uint8Array(512);
    const { bytesRead } = await file.read(head, 0, 512, 0);
    const bytes = head.subarray(0, bytesRead);
    if (bytesRead === 0) {
      return { what: "empty, not an Excel workbook", hint: "export the sheet from the spreadsheet again" };
    }
    if (starts(bytes, ZIP)) return null;
    if (starts(bytes, COMPOUND)) {
      return (await streamNames(file, bytes)).some((n) => n === "EncryptedPackage" || n === "EncryptionInfo")
        ? {
            what: "a password-protected (encrypted) Excel workbook",
            hint: "open it in Excel, remove the password (File › Info › Protect Workbook › Encrypt with Password) and save it, or save the sheet as CSV UTF-8",
          }
        : {
            what: "an old binary Excel workbook (.xls), not an .xlsx workbook",
            hint: "open it in Excel or LibreOffice and save it as Excel Workbook (.xlsx) or as CSV UTF-8",
          };
    }
    if (starts(bytes, PDF)) {
      return { what: "a PDF document, not an Excel workbook", hint: "export the data as .xlsx, CSV or JSON" };
    }
    const first = new TextDecoder()
      .decode(bytes)
      .replace(/^\uFEFF/, "")
      .trimStart()[0];
    return first === "{" || first === "["
      ? { what: "JSON text, not an Excel workbook", hint: "name it .json, or give --input-format json" }
      : { what: "text (CSV?), not an Excel workbook", hint: "name it .csv, or give --input-format csv" };
  } finally {
    await file.close();
  }
}

/**
 * The names in a compound file's directory (MS-CFB): the directory's sectors followed through
 * the allocation table, as far as the header's own list of table sectors reaches.
 */
async function streamNames(file: FileHandle, header: Uint8Array): Promise<string[]> {
  if (header.length < 512) return [];
  const view = new DataView(header.buffer, header.byteOffset, header.length);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return [];
  const size = 1 << shift;
  const perFatSector = size / 4;
  const fatSectors: number[] = [];
  for (let k = 0; k < 109; k++) fatSectors.push(view.getUint32(0x4c + 4 * k, true));
  const sector = new Uint8Array(size);
  const sectorView = new DataView(sector.buffer);
  const read = async (id: number) => (await file.read(sector, 0, size, (id + 1) * size)).bytesRead === size;
  const names: string[] = [];
  let id = view.getUint32(0x30, true);
  for (let hops = 0; hops < 256 && id < 0xfffffffa; hops++) {
    if (!(await read(id))) break;
    for (let at = 0; at + 128 <= size; at += 128) {
      const length = sectorView.getUint16(at + 0x40, true);
      if (length >= 2 && length <= 64) {
        names.push(new TextDecoder("utf-16le").decode(sector.subarray(at, at + length - 2)));
      }
    }
    const fat = fatSectors[Math.floor(id / perFatSector)];
    if (fat === undefined || fat >= 0xfffffffa || !(await read(fat))) break;
    id = sectorView.getUint32((id % perFatSector) * 4, true);
  }
  return names;
}
