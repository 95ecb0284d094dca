// A real headless Chromium for the page's tests: Debian's package (/usr/bin/chromium), driven by
// playwright-core (its own browser download cannot be reached from these machines). Without the
// browser the page's tests are skipped with one line saying how to get it, unless
// SYNCFILE_REQUIRE_BROWSER=1 (CI installs it and sets this), where its absence fails them.

import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page, type Request } from "playwright-core";

export const CHROMIUM = process.env.SYNCFILE_CHROMIUM ?? "/usr/bin/chromium";

/** Why the page's tests cannot run here, or null when they can. */
export function browserUnavailable(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const why = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set SYNCFILE_CHROMIUM)`;
  if (process.env.SYNCFILE_REQUIRE_BROWSER === "1") throw new Error(`SYNCFILE_REQUIRE_BROWSER=1 but ${why}`);
  return why;
}

/** Starts the browser with the flags a sandboxed, offline CI machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--no-first-run",
    ],
  });
}

/** A new page, the URL of every request it (or its worker) makes, and its uncaught errors. */
export async function openPage(
  browser: Browser,
): Promise<{ page: Page; requests: string[]; errors: string[] }> {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const requests: string[] = [];
  const errors: string[] = [];
  context.on("request", (request: Request) => requests.push(request.url()));
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, requests, errors };
}

/**
 * Saves what `page` shows as `name`.png in $SYNCFILE_SCREENSHOTS, when set (`npm run
 * screenshots` sets it to docs/, for docs/page.md).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.SYNCFILE_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
}

/** Drops a file with `content` called `name` on the element `selector`, as a user's drag would. */
export async function dropFile(
  page: Page,
  selector: string,
  name: string,
  content: string | Buffer,
): Promise<void> {
  const bytes = [...(typeof content === "string" ? Buffer.from(content) : content)];
  const dataTransfer = await page.evaluateHandle(
    ({ name, bytes }) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], name));
      return transfer;
    },
    { name, bytes },
  );
  await page.dispatchEvent(selector, "dragenter", { dataTransfer });
  await page.dispatchEvent(selector, "drop", { dataTransfer });
}
