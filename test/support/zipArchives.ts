// ZIP archives of the forms a workbook may come in that the fixtures lack: ZIP64 (sizes and
// offsets in the extra field, the end record's in the ZIP64 end record), written by hand here
// since neither fflate nor exceljs writes it; the place of an archive's central directory; and
// archives with any bytes changed.

import fc from "fast-check";
import { deflateSync } from "fflate";

const encoder = new TextEncoder();

/** `parts` deflated into a ZIP64 archive: every size, offset and count in its 64-bit place. */
export function zip64Archive(parts: Record<string, Uint8Array>): Uint8Array {
  const data: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const [name, bytes] of Object.entries(parts)) {
    const fileName = encoder.encode(name);
    const deflated = deflateSync(bytes);
    const local = new Uint8Array(30 + fileName.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 45, true);
    l.setUint16(6, 0x800, true);
    l.setUint16(8, 8, true);
    l.setUint32(18, deflated.length, true);
    l.setUint32(22, bytes.length, true);
    l.setUint16(26, fileName.length, true);
    local.set(fileName, 30);
    const header = new Uint8Array(46 + fileName.length + 28);
    const h = new DataView(header.buffer);
    h.setUint32(0, 0x02014b50, true);
    h.setUint16(4, 45, true);
    h.setUint16(6, 45, true);
    h.setUint16(8, 0x800, true);
    h.setUint16(10, 8, true);
    h.setUint32(20, 0xffffffff, true);
    h.setUint32(24, 0xffffffff, true);
    h.setUint16(28, fileName.length, true);
    h.setUint16(30, 28, true);
    h.setUint32(42, 0xffffffff, true);
    header.set(fileName, 46);
    const extra = 46 + fileName.length;
    h.setUint16(extra, 0x0001, true);
    h.setUint16(extra + 2, 24, true);
    h.setBigUint64(extra + 4, BigInt(bytes.length), true);
    h.setBigUint64(extra + 12, BigInt(deflated.length), true);
    h.setBigUint64(extra + 20, BigInt(offset), true);
    data.push(local, deflated);
    central.push(header);
    offset += local.length + deflated.length;
  }
  const directorySize = central.reduce((n, c) => n + c.length, 0);
  const end = new Uint8Array(56 + 20 + 22);
  const e = new DataView(end.buffer);
  const count = BigInt(central.length);
  e.setUint32(0, 0x06064b50, true);
  e.setBigUint64(4, 44n, true);
  e.setUint16(12, 45, true);
  e.setUint16(14, 45, true);
  e.setBigUint64(24, count, true);
  e.setBigUint64(32, count, true);
  e.setBigUint64(40, BigInt(directorySize), true);
  e.setBigUint64(48, BigInt(offset), true);
  e.setUint32(56, 0x07064b50, true);
  e.setBigUint64(56 + 8, BigInt(offset + directorySize), true);
  e.setUint32(56 + 16, 1, true);
  e.setUint32(76, 0x06054b50, true);
  e.setUint16(76 + 8, 0xffff, true);
  e.setUint16(76 + 10, 0xffff, true);
  e.setUint32(76 + 12, 0xffffffff, true);
  e.setUint32(76 + 16, 0xffffffff, true);
  const archive = new Uint8Array(offset + directorySize + end.length);
  let at = 0;
  for (const piece of [...data, ...central, end]) {
    archive.set(piece, at);
    at += piece.length;
  }
  return archive;
}

/** Where the central directory of `archive` (no ZIP64, no comment) starts. */
export function centralDirectoryOffset(archive: Uint8Array): number {
  const view = new DataView(archive.buffer, archive.byteOffset, archive.length);
  const end = archive.length - 22;
  if (view.getUint32(end, true) !== 0x06054b50) throw new Error("no end record where it should be");
  return view.getUint32(end + 16, true);
}

/** Up to 8 bytes of an archive of `length` bytes set to any value: (where, value) each. */
export function byteChangesArb(length: number): fc.Arbitrary<[number, number][]> {
  return fc.array(fc.tuple(fc.nat({ max: length - 1 }), fc.integer({ min: 0, max: 255 })), {
    minLength: 1,
    maxLength: 8,
  });
}

/** A copy of `bytes` with `changes` made. */
export function changed(bytes: Uint8Array, changes: readonly [number, number][]): Uint8Array {
  const copy = Uint8Array.from(bytes);
  for (const [at, value] of changes) copy[at] = value;
  return copy;
}
