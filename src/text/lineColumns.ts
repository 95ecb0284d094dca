// Lines and columns of offsets in a text, found by binary search in its line starts (one pass
// to index them) instead of counting the lines before each offset again.

/** Where an offset is: its line and column, both from 1 (the column in UTF-16 code units). */
export interface LineColumn {
  line: number;
  column: number;
}

/** A function giving the line and column of an offset in `text` (lines end at `\n`). */
export function lineColumns(text: string): (offset: number) => LineColumn {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    // the last line starting at or before the offset
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: offset - (starts[low] as number) + 1 };
  };
}
