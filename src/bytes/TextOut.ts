// Where a writer's output goes: strings, or bytes already encoded as UTF-8. What ChunkedOut
// collects into and fileBytes writes to a file.

/** Where written text goes: as strings, or encoded as UTF-8 (`{bytes}`: cheaper for a file). */
export type TextOut = ((chunk: string) => void) | BytesOut;

/** A sink of UTF-8 bytes; a chunk's memory is reused once the call returns (copy it to keep it). */
export interface BytesOut {
  bytes(chunk: Uint8Array): void;
}
