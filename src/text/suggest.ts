// "Did you mean …?" for misspelled property names, header names and enum values.

/** Lower case without spaces, `_` and `-`: `First_Name` and `first name` both become `firstname`. */
export function looseName(name: string): string {
  return name.toLowerCase().replace(/[\s_-]+/g, "");
}

/** The candidate closest to `name` (same loose name, or at most 2 edits apart), or undefined. */
export function suggest(name: string, candidates: readonly string[]): string | undefined {
  const loose = looseName(name);
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const other = looseName(candidate);
    if (other === loose) return candidate;
    const limit = Math.min(2, Math.floor(Math.max(other.length, loose.length) / 3));
    const d = editDistance(loose, other, limit);
    if (d <= limit && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance, giving up once it exceeds `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev2 = prev;
    prev = row;
  }
  return prev[b.length] as number;
}
