// The first bytes of a pass's source, looked at before the pass is chosen (a UTF-16 file is
// read in one thread), and the source as it was: the chunks taken are given again first.

import type { PassSource } from "./passSource.js";

/** At least `length` bytes of the start of `source` (fewer when it is shorter), and the source to read instead. */
export async function peekStart(
  source: PassSource,
  length: number,
): Promise<{ start: Uint8Array; source: PassSource }> {
  const iterator = source.chunks[Symbol.asyncIterator]();
  const taken: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  while (size < length) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    taken.push(new Uint8Array(next.value)); // a copy: a file's chunks reuse their buffers
    size += next.value.length;
  }
  const start = new Uint8Array(size);
  let at = 0;
  for (const chunk of taken) {
    start.set(chunk, at);
    at += chunk.length;
  }
  async function* again(): AsyncGenerator<Uint8Array> {
    let finished = ended;
    try {
      yield* taken;
      while (!finished) {
        const next = await iterator.next();
        finished = next.done === true;
        if (!finished) yield next.value as Uint8Array;
      }
    } finally {
      // a reader that stops early ends the source's own reading too
      if (!finished) await iterator.return?.();
    }
  }
  return { start, source: { ...source, chunks: again() } };
}
