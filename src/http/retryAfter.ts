// The wait a 429 or 503 asks for in its Retry-After header: seconds, or an HTTP date. Read the
// same way by the client and by the page.

/** The wait `value` asks for, in ms (never negative); null without a readable one. */
export function retryAfterMs(value: string | null | undefined, now: number): number | null {
  if (typeof value !== "string" || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
