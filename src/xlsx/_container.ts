// What a file given as a workbook is when it is not a ZIP: an Office file in the old compound
// container — a binary .xls workbook, or an encrypted (password-protected) .xlsx, told apart by
// the names of the container's streams —, a PDF, text, or nothing at all.

import type { ByteRange } from "../bytes/ByteRange.js";
import type { FileSignature } from "../text/fileSignature.js";

const ZIP = [0x50, 0x4b];
const COMPOUND = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d];

const starts = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, k) => bytes[k] === b);

/** Why `file` is not a workbook, or null when it is a ZIP archive (read it as one). */
export async function notWorkbook(file: ByteRange): Promise<FileSignature | null> {
  const bytes = await file.read(0, 512);
  if (bytes.length === 0) {
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
}

/**
 * The names in a compound file's directory (MS-CFB): the directory's sectors followed through
 * the allocation table, as far as the header's own list of table sectors reaches.
 */
async function streamNames(file: ByteRange, header: Uint8Array): Promise<string[]> {
  if (header.length < 512) return [];
  const view = new DataView(header.buffer, header.byteOffset, header.length);
  const shift = view.getUint16(0x1e, true);
  if (shift !== 9 && shift !== 12) return [];
  const size = 1 << shift;
  const perFatSector = size / 4;
  const fatSectors: number[] = [];
  for (let k = 0; k < 109; k++) fatSectors.push(view.getUint32(0x4c + 4 * k, true));
  const read = async (id: number) => {
    const sector = await file.read((id + 1) * size, size);
    return sector.length === size ? new DataView(sector.buffer, sector.byteOffset, size) : null;
  };
  const names: string[] = [];
  let id = view.getUint32(0x30, true);
  for (let hops = 0; hops < 256 && id < 0xfffffffa; hops++) {
    const directory = await read(id);
    if (!directory) break;
    for (let at = 0; at + 128 <= size; at += 128) {
      const length = directory.getUint16(at + 0x40, true);
      if (length >= 2 && length <= 64) {
        const name = new Uint8Array(directory.buffer, directory.byteOffset + at, length - 2);
        names.push(new TextDecoder("utf-16le").decode(name));
      }
    }
    const fatId = fatSectors[Math.floor(id / perFatSector)];
    const fat = fatId === undefined || fatId >= 0xfffffffa ? null : await read(fatId);
    if (!fat) break;
    id = fat.getUint32((id % perFatSector) * 4, true);
  }
  return names;
}
