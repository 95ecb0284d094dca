// The page at / in a real headless Chromium, against our server over real HTTP: a dropped file
// is checked in the browser and its findings listed where the CLI puts them; a valid CSV
// downloads as the JSON `syncfile convert` writes, byte for byte; a push shows the sync's
// summary; a 25 MB file validates in a worker, the progress bar moving and the page answering
// clicks meanwhile. No request leaves for another host. The page is the built one (dist/web/).

import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS } from "../../src/http/operations.js";
import type { Report } from "../../src/index.js";
import { placeOf } from "../../src/report/formatText.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { browserUnavailable, dropFile, launchBrowser, openPage, screenshot } from "../support/browser.js";
import { runCli } from "../support/cli.js";
import { fixture } from "../support/paths.js";
import { startProxy } from "../support/proxy.js";
import {
  bigDocument,
  call,
  dataDir,
  holdSync,
  KEY,
  OTHER_KEY,
  startServer,
  TestClock,
  uploadFile,
} from "../support/server.js";

const unavailable = browserUnavailable();
if (unavailable) process.stdout.write(`the page's browser tests are skipped: ${unavailable}\n`);

describe.skipIf(unavailable !== null)("the page", { timeout: 120_000 }, () => {
  let server: SyncfileServer;
  let browser: Browser;
  let data: string;
  const hosts = new Set<string>();
  /** The hosts of the servers these tests start: the only ones a page may ask. */
  const ours = new Set<string>();
  const errors: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "syncfile-web-"));

  beforeAll(async () => {
    data = await dataDir();
    [server, browser] = await Promise.all([startServer({ dataDir: data }), launchBrowser()]);
  });
  afterAll(async () => {
    await Promise.all([browser?.close(), server?.close()]);
    rmSync(dir, { recursive: true, force: true });
    // every request of every test went to our server (or stayed in the page: blob: URLs), and
    // nothing in the page failed uncaught
    expect([...hosts].filter((host) => !ours.has(host))).toEqual([]);
    expect(errors).toEqual([]);
  });

  /** The page, loaded, with its requests' hosts recorded. */
  async function open(base = server.url): Promise<Page> {
    ours.add(new URL(base).host);
    const opened = await openPage(browser);
    const { page, requests } = opened;
    page.on("close", () => {
      errors.push(...opened.errors);
      for (const url of requests) if (!/^(blob|data):/.test(url)) hosts.add(new URL(url).host);
    });
    await page.goto(`${base}/`);
    return page;
  }

  /** Picks the valid fixture `name`, waits for its check, and pushes it to app account `account`. */
  async function pushValid(page: Page, name: string, account: string): Promise<void> {
    await page.setInputFiles("#file", fixture(name));
    await page.locator("#result .banner.valid").waitFor();
    await page.fill("#key", KEY);
    await page.fill("#account", account);
    await page.click("#push");
  }

  /** The findings table under `section`: each row's place, code and message. */
  function findingRows(page: Page, section: string) {
    return page.locator(`${section} tbody.findings tr`).evaluateAll((trs) =>
      trs.map((tr) => ({
        where: (tr as HTMLTableRowElement).cells[0]?.querySelector("code")?.textContent ?? "",
        code: tr.dataset.code,
        message: (tr as HTMLTableRowElement).cells[3]?.firstChild?.textContent ?? "",
      })),
    );
  }

  /** The CLI's report of a fixture. */
  async function cliReport(name: string): Promise<Report> {
    const { stdout } = await runCli(["validate", fixture(name), "--format", "json"]);
    return JSON.parse(stdout) as Report;
  }

  it.each([
    "invalid/license.user.email.unknown.json",
    "invalid/user.email.format.json",
    "invalid/csv.row.user.csv",
    "invalid/json.syntax.json",
    "invalid/xlsx.cell.error.xlsx",
    "invalid/xlsx.sheet.missing.xlsx",
  ])("lists the findings of a dropped %s where the CLI puts them", async (name) => {
    const report = cliReport(name); // the CLI's run needs nothing of the page's: side by side
    const page = await open();
    try {
      await dropFile(page, "#drop", name.split("/")[1] as string, readFileSync(fixture(name)));
      await page.locator("#result .banner").waitFor();
      expect(await page.locator("#result .banner").textContent()).toMatch(/^invalid — /);
      const rows = await findingRows(page, "#result");
      const expected = (await report).findings;
      expect(rows.map((r) => r.code)).toEqual(expected.map((f) => f.code));
      expect(rows.map((r) => r.message)).toEqual(expected.map((f) => f.message));
      // where the text format puts them: line:column, a CSV row's line, a workbook's cell
      expect(rows.map((r) => r.where)).toEqual(expected.map((f) => placeOf(f)));
      // the download is offered for a valid file only
      expect(await page.locator("#download-json").isDisabled()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("marks the spot in the source line of a finding", async () => {
    const page = await open();
    try {
      const name = "license.user.email.unknown.json";
      await page.setInputFiles("#file", fixture(`invalid/${name}`));
      const source = page.locator("#result tbody.findings tr pre").first();
      await source.waitFor();
      // the example of docs/validate.md (--format github): line 10, column 20
      expect(await page.locator("#result tbody.findings tr td code").first().textContent()).toBe("10:20");
      expect(await source.locator(".gutter").textContent()).toBe("10 | ");
      expect(await source.locator("mark").textContent()).toBe('"');
      await screenshot(page, "page-invalid");
    } finally {
      await page.close();
    }
  });

  it.each([
    ["valid/example.csv", "json"],
    ["valid/example.json", "csv"],
    ["valid/google-sheets.xlsx", "json"],
  ] as const)("downloads a valid %s as the %s syncfile convert writes, byte for byte", async (name, to) => {
    // the CLI's conversion needs nothing of the page's: side by side
    const base = (name.split("/")[1] as string).replace(/\.\w+$/, "");
    const out = join(dir, `${base}.${to}`);
    const converting = runCli(["convert", fixture(name), out]);
    const page = await open();
    try {
      await page.setInputFiles("#file", fixture(name));
      await page.locator("#result .banner.valid").waitFor();
      if (name === "valid/example.csv") await screenshot(page, "page-valid");
      const [download] = await Promise.all([page.waitForEvent("download"), page.click(`#download-${to}`)]);
      expect(download.suggestedFilename()).toBe(`${base}.${to}`);
      const fromPage = readFileSync((await download.path()) as string);
      const converted = await converting;
      expect(converted.code).toBe(0);
      expect(fromPage.equals(readFileSync(out))).toBe(true);
    } finally {
      await page.close();
    }
  });

  it.each([
    ["valid/example.json", "example.json", "4242"],
    // a workbook goes up as the JSON it converts to, as syncfile push sends it
    ["valid/google-sheets.xlsx", "google-sheets.json", "4545"],
  ])("pushes a valid %s and shows the sync's summary", async (name, sent, account) => {
    const page = await open();
    try {
      await pushValid(page, name, account);
      await page.locator("#push-result table").waitFor();
      expect(await page.locator("#push-status").textContent()).toBe(
        `Synced ${sent} into app account ${account}.`,
      );
      const state = await call(server.url, "GET", `/v1.0/appAccounts/${account}`);
      expect(state.status).toBe(200);
      const users = (state.body.lastSync as { users: number }).users;
      expect(users).toBeGreaterThan(0);
      expect(await page.locator("#push-result table").textContent()).toContain(`users${users} (`);
      if (account === "4242") await screenshot(page, "page-pushed");
    } finally {
      await page.close();
    }
  });

  describe("with the keyboard alone", () => {
    /** The page, the file input reached by Tab and `name` picked with Space, its result shown. */
    async function pick(name: string): Promise<Page> {
      const page = await open();
      // listened for first: the browser is told to hand file choosers over before any key
      // (with the listener set as the key went, one run in four or five saw no chooser)
      const chooser = page.waitForEvent("filechooser");
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("Skip to the file");
      await page.keyboard.press("Tab");
      expect(await focused(page)).toBe("file");
      await page.keyboard.press("Space");
      await (await chooser).setFiles(fixture(name));
      await page.locator("#result .banner").waitFor();
      // the result takes the focus
      expect(await page.evaluate(() => document.activeElement?.classList.contains("banner"))).toBe(true);
      return page;
    }
    const focused = (page: Page) =>
      page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent);

    it("picks a file and filters its findings", async () => {
      const page = await pick("invalid/user.email.format.json");
      try {
        // the code's link, then the filters
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.getAttribute("href"))).toBe(
          "#code-user.email.format",
        );
        await page.keyboard.press("Tab");
        await page.keyboard.press("Space"); // untick "errors"
        expect(await page.locator("#result .shown").textContent()).toBe("0 of 1 shown");
        await page.keyboard.press("Space");
        expect(await page.locator("#result .shown").textContent()).toBe("1 of 1 shown");
      } finally {
        await page.close();
      }
    });

    it("downloads and pushes a valid file", async () => {
      const page = await pick("valid/example.csv");
      try {
        await page.keyboard.press("Tab");
        expect(await focused(page)).toBe("download-json");
        const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
        expect(download.suggestedFilename()).toBe("example.json");
        // the push form: Tab to each field, type, Enter submits
        await page.keyboard.press("Tab"); // Download as CSV
        await page.keyboard.press("Tab");
        expect(await focused(page)).toBe("base");
        await page.keyboard.press("Tab");
        await page.keyboard.type(KEY);
        await page.keyboard.press("Tab");
        await page.keyboard.type("4343");
        await page.keyboard.press("Enter");
        await page.locator("#push-result table").waitFor();
        expect(await page.locator("#push-status").textContent()).toBe(
          "Synced example.csv into app account 4343.",
        );
      } finally {
        await page.close();
      }
    });
  });

  it("waits out a sync already running with a countdown, then shows the summary", async () => {
    const page = await open();
    try {
      await page.clock.install(); // the wait's seconds pass when the test says
      const held = await holdSync(server.url, data, 4444);
      await pushValid(page, "valid/example.json", "4444");
      // the reason, read out once, and the seconds left beside it
      await page.waitForFunction(
        () =>
          document.getElementById("push-status")?.textContent ===
            "Another sync of this app account is running; trying again in" &&
          /^\d+ s$/.test(document.getElementById("push-wait")?.textContent ?? ""),
      );
      await held.release();
      expect((await held.answer).status).toBe(200);
      await page.clock.fastForward(5000);
      await page.locator("#push-result table").waitFor();
      expect(await page.locator("#push-status").textContent()).toBe(
        "Synced example.json into app account 4444.",
      );
    } finally {
      await page.close();
    }
  });

  it("shows the report of a service that refuses a file the page found valid, in the same table", async () => {
    // a stricter service's answer: ours on a file with an invalid email, passed on by a proxy
    // in place of its answer to the page's sync
    const { id } = await uploadFile(
      server.url,
      "bad.json",
      readFileSync(fixture("invalid/user.email.format.json")),
    );
    const refused = await call(server.url, "PUT", OPERATIONS.syncCustom.path, {
      json: { idFile: id, idAppAccount: 4445 },
    });
    expect(refused.status).toBe(400);
    const proxy = await startProxy(server.url);
    const page = await open(proxy.url);
    try {
      proxy.answerNext(
        new RegExp(`^PUT ${OPERATIONS.syncCustom.path}$`),
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(refused.text)}\r\nconnection: close\r\n\r\n${refused.text}`,
      );
      await pushValid(page, "valid/example.json", "4445");
      await page.locator("#push-result .banner.invalid").waitFor();
      expect(await page.locator("#push-status").textContent()).toBe(
        `PUT ${OPERATIONS.syncCustom.path} was refused (400): ${refused.body.message}`,
      );
      const finding = (refused.body.report as Report).findings[0] as Report["findings"][number];
      expect(await findingRows(page, "#push-result")).toEqual([
        { where: placeOf(finding), code: finding.code, message: finding.message },
      ]);
    } finally {
      await page.close();
      await proxy.close();
    }
  });

  it("checks only the last file chosen, and stops a check on Cancel", async () => {
    const page = await open();
    try {
      const big = join(dir, "second.json");
      writeFileSync(big, bigDocument(150_000));
      // a second file while the first is checked: the first's check ends without a word
      await page.setInputFiles("#file", big);
      await page.waitForFunction(
        () => (document.getElementById("progress") as HTMLProgressElement).value > 0,
      );
      await page.setInputFiles("#file", fixture("invalid/user.email.format.json"));
      await page.locator("#result .banner.invalid").waitFor();
      expect(await page.locator("#result h2").textContent()).toBe("user.email.format.json");
      expect(await page.locator("#message").isHidden()).toBe(true);
      // the same file again (fixed in between, say) is checked again
      await page.evaluate(() => {
        document.getElementById("result")?.replaceChildren();
      });
      await page.setInputFiles("#file", fixture("invalid/user.email.format.json"));
      await page.locator("#result .banner.invalid").waitFor();
      // Cancel: the check stops, says so, and the focus goes back to the file
      await page.setInputFiles("#file", big);
      await page.waitForFunction(
        () => (document.getElementById("progress") as HTMLProgressElement).value > 0,
      );
      await page.click("#cancel");
      expect(await page.locator("#message").textContent()).toBe("Checking second.json: stopped.");
      expect(await page.locator("#progress-row").isHidden()).toBe(true);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe("file");
      expect(await page.locator("#result-section").isHidden()).toBe(true);
    } finally {
      await page.close();
    }
  });

  it("waits out a rate limit with a countdown, as Retry-After says, lists the executions and downloads a report", async () => {
    const clock = new TestClock();
    const limited = await startServer({ clock: clock.read, seed: fixture("seed.json") });
    const page = await open(limited.url);
    try {
      // the key's calls of a minute, spent at once; 1.5 s before the first leaves the window,
      // the page's call is refused for 2 s
      for (let i = 0; i < OPERATIONS.listExecutions.perMinute; i++) {
        expect((await call(limited.url, "GET", OPERATIONS.listExecutions.path)).status).toBe(200);
      }
      clock.advance(58_500);
      expect(await limited.generateReports()).toBeGreaterThan(0);
      await page.fill("#key", KEY);
      await page.click("#reviews");
      await page.waitForFunction(
        () =>
          document.getElementById("reviews-status")?.textContent ===
            "The service's rate limit was reached; trying again, as it asks, in" &&
          /^[12] s$/.test(document.getElementById("reviews-wait")?.textContent ?? ""),
      );
      clock.advance(5_000);
      await page.locator("#reviews-result table").first().waitFor();
      expect(await page.locator("#reviews-status").textContent()).toMatch(/^\d+ executions\.$/);
      // a report archive, downloaded from the page, is the service's file
      const button = page.locator("#reviews-result button").first();
      const id = Number((await button.textContent())?.replace("Download report ", ""));
      const [download] = await Promise.all([page.waitForEvent("download"), button.click()]);
      expect(download.suggestedFilename()).toMatch(/^campaign-\d+-execution-\d+\.zip$/);
      const fromPage = readFileSync((await download.path()) as string);
      const served = await fetch(`${limited.url}/v1.0/files/${id}/download`, {
        headers: { authorization: `Bearer ${OTHER_KEY}` },
      });
      expect(served.status).toBe(200);
      expect(fromPage.equals(Buffer.from(await served.arrayBuffer()))).toBe(true);
    } finally {
      await page.close();
      await limited.close();
    }
  });

  describe("the mapping step", () => {
    const hr =
      "Employee,Work mail,State,Last seen\n" +
      "Ada Lovelace,ada@example.com,Employed,05.07.2024\n" +
      "Grace Hopper,grace@example.com,On leave,-\n" +
      "Alan Turing,alan@example.com,Left,01.02.2024\n";

    /** The rows of a table: its cells' texts, a select's chosen option by its value. */
    const rowsOf = (page: Page, selector: string) =>
      page
        .locator(`${selector} tr`)
        .evaluateAll((trs) =>
          trs.map((tr) =>
            [...(tr as HTMLTableRowElement).cells].map(
              (c) => c.querySelector("select")?.value ?? c.textContent ?? "",
            ),
          ),
        );

    it("maps an export no profile knows with the keyboard: columns, a status value, a preview; saves and loads the mapping", async () => {
      const page = await open();
      const path = join(dir, "hr.csv");
      writeFileSync(path, hr);
      await page.setInputFiles("#file", path);
      await page.locator("#mapping-columns tbody tr").first().waitFor();
      // the suggestion: each column's field and why, the status values as their words say, the dates' form
      expect(await rowsOf(page, "#mapping-columns tbody")).toEqual([
        ["Employee", "fullName", "by its name", "Ada Lovelace, Grace Hopper, Alan Turing"],
        [
          "Work mail",
          "email",
          "3 of 3 rows look like addresses",
          "ada@example.com, grace@example.com, alan@example.com",
        ],
        ["State", "status", "by its name and its values", "Employed, On leave, Left"],
        ["Last seen", "lastUsedDate", "by its name and its dates", "05.07.2024, -, 01.02.2024"],
      ]);
      expect(await rowsOf(page, "#mapping-status tbody")).toEqual([
        ["Employed", "1", "active"],
        ["On leave", "1", "?"],
        ["Left", "1", "deleted"],
      ]);
      expect(await page.locator("#mapping-status caption").textContent()).toContain("(1 to decide");
      expect(await rowsOf(page, "#mapping-preview tbody")).toEqual([
        ["ada@example.com", "Ada", "Lovelace", "active", "Employed", "2024-07-05"],
        // "?": no status yet, the raw word kept
        ["grace@example.com", "Grace", "Hopper", "", "On leave", ""],
        ["alan@example.com", "Alan", "Turing", "deleted", "Left", "2024-02-01"],
      ]);
      // not valid yet: the file as its header decides has no email column
      await page.locator("#result .banner.invalid").waitFor();

      // with the keyboard alone: "On leave" means active, then check with this mapping
      await page.focus('#mapping-status select[aria-label="meaning of status Employed"]');
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(
        "meaning of status On leave",
      );
      await page.keyboard.press("ArrowDown"); // "? to decide" → active
      expect(await rowsOf(page, "#mapping-preview tbody")).toContainEqual([
        "grace@example.com",
        "Grace",
        "Hopper",
        "active",
        "On leave",
        "",
      ]);
      await page.focus("#mapping-check");
      await page.keyboard.press("Enter");
      await page.locator("#result .banner.valid").waitFor();
      expect(await page.locator("#mapping-status caption").textContent()).not.toContain("to decide");
      expect(await page.locator("#result .stats").first().textContent()).toContain("3 users");
      await screenshot(page, "page-mapping");

      // the mapping saved is the one shown, and reads the file so with the CLI too
      await page.focus("#mapping-save");
      const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
      const saved = join(dir, "hr.mapping.json");
      await download.saveAs(saved);
      const mapping = JSON.parse(readFileSync(saved, "utf8"));
      expect(mapping.status.values).toEqual({ Employed: "active", "On leave": "active", Left: "deleted" });
      expect((await runCli(["validate", path, "--mapping", saved])).code).toBe(0);

      // a mapping loaded: checked with it; a wrong one says where
      const wrong = join(dir, "wrong.json");
      writeFileSync(wrong, '{\n  "name": "hr",\n  "email": 3\n}\n');
      await page.setInputFiles("#mapping-file", wrong);
      await page.locator("#message", { hasText: "wrong.json:3:3" }).waitFor();
      await page.setInputFiles("#mapping-file", saved);
      await page.locator("#result .banner.valid").waitFor();
      await page.close();
    });

    it("shows the profile a known export was read through, and pushes the JSON it makes", async () => {
      const page = await open();
      const path = join(dir, "bamboohr.csv");
      writeFileSync(
        path,
        "Employee #,First Name,Last Name,Job Title,Status,Work Email\n" +
          "1,Ada,Lovelace,Engineer,Active,ada@example.com\n" +
          "2,Grace,Hopper,Admiral,Inactive,grace@example.com\n",
      );
      await page.setInputFiles("#file", path);
      await page.locator("#mapping-columns tbody tr").first().waitFor();
      await page.locator("#mapping-note", { hasText: "Read as BambooHR" }).waitFor();
      expect(await rowsOf(page, "#mapping-columns tbody")).toContainEqual([
        "Work Email",
        "email",
        "the bamboohr profile",
        "ada@example.com, grace@example.com",
      ]);
      expect(await page.locator("#result").textContent()).toContain(
        "read as BambooHR: an employee report with Work Email and Status (profile bamboohr, recognised by its header)",
      );
      // a row's column changed: the preview follows (Job Title read as roles)
      await page.selectOption('select[aria-label="field of column Job Title"]', "roles");
      expect((await rowsOf(page, "#mapping-preview thead"))[0]).toContain("roles");
      // pushed as the header decides: the JSON the profile makes goes up, not the export
      await page.locator("#result .banner.valid").waitFor();
      await page.fill("#key", KEY);
      await page.fill("#account", "31");
      await page.click("#push");
      await page.locator("#push-status", { hasText: "Synced bamboohr.json into app account 31." }).waitFor();
      const id = Number(await page.locator("#push-result td").nth(3).textContent());
      const download = await call(server.url, "GET", `/v1.0/files/${id}/download`, { redirect: "follow" });
      const pushed = JSON.parse(download.text);
      expect(pushed.users).toEqual([
        {
          email: "ada@example.com",
          firstName: "Ada",
          lastName: "Lovelace",
          status: "active",
          externalStatus: "Active",
        },
        {
          email: "grace@example.com",
          firstName: "Grace",
          lastName: "Hopper",
          status: "deleted",
          externalStatus: "Inactive",
        },
      ]);
      await page.close();
    });
  });

  describe("the changes and the guard before a push", () => {
    /** `n` users, those of `deleted` deactivated, as a JSON file in the test's folder. */
    const people = (name: string, n: number, deleted: readonly number[] = []) => {
      const path = join(dir, name);
      const users = Array.from({ length: n }, (_, i) => ({
        email: `user${i}@example.com`,
        status: deleted.includes(i) ? "deleted" : "active",
      }));
      writeFileSync(path, JSON.stringify({ users, licenses: [] }));
      return path;
    };
    const activeUsers = async (base: string, account: number) =>
      ((await call(base, "GET", `/v1.0/appAccounts/${account}`)).body.users as { active: number }).active;

    async function pushFrom(page: Page, path: string, account: string): Promise<void> {
      await page.setInputFiles("#file", path);
      await page.locator("#result .banner.valid").waitFor();
      await page.fill("#key", KEY);
      await page.fill("#account", account);
      await page.click("#push");
    }

    it("shows what a push changes against the account's last sync, stops one that takes away too many, and pushes anyway when asked", async () => {
      const { id: idFile } = await uploadFile(server.url, "all.json", readFileSync(people("all.json", 30)));
      const first = await call(server.url, "PUT", OPERATIONS.syncCustom.path, {
        json: { idFile, idAppAccount: 4600 },
      });
      expect(first.status).toBe(200);
      const page = await open();
      try {
        // an export cut short: 18 of 30 users gone, one more deactivated
        await pushFrom(page, people("cut.json", 12, [0]), "4600");
        await page.locator("#push-status", { hasText: "Not pushed:" }).waitFor();
        expect(await page.locator("#push-status").textContent()).toBe(
          `Not pushed: this push would remove or deactivate 19 users of app account 4600, more than the guard allows (10). The first of them: ${[
            0,
            ...Array.from({ length: 18 }, (_, i) => i + 12),
          ]
            .map((i) => `user${i}@example.com`)
            .sort()
            .join(", ")}. Check the file (an export cut short? a filter, the wrong sheet?), or push anyway.`,
        );
        expect(await page.locator("#push-changes h3").textContent()).toBe(
          `Changes against the account's last sync (sync ${first.body.idSync}, file ${idFile}): 19`,
        );
        expect(await page.locator("#push-changes p").allTextContents()).toEqual([
          "users: 0 added, 18 removed, 1 deactivated, 0 reactivated, 0 changed",
          "licenses: 0 added, 0 removed, 0 changed",
          "license users: 0 granted, 0 revoked, 0 changed",
          "users taken away: 19 (the guard allows 10)",
        ]);
        expect(await page.locator("#push-changes caption").allTextContents()).toEqual([
          "user.removed (18)",
          "user.deactivated (1)",
        ]);
        expect(await page.locator("#push-changes td").first().textContent()).toBe("- user12@example.com");
        // nothing went up: the account still holds its 30 users
        expect(await activeUsers(server.url, 4600)).toBe(30);
        expect(await page.locator("#push-result").textContent()).toBe("");

        // the deliberate confirmation
        await page.locator("#push-anyway").focus();
        await page.keyboard.press("Enter");
        await page.locator("#push-status", { hasText: "Synced cut.json into app account 4600." }).waitFor();
        expect(await page.locator("#push-guard").isHidden()).toBe(true);
        expect(await activeUsers(server.url, 4600)).toBe(11);

        // against a file the admin chooses instead: one user gone is within the guard
        await page.setInputFiles("#previous", people("before.json", 13));
        await page.click("#push");
        await page.locator("#push-status", { hasText: "Synced cut.json into app account 4600." }).waitFor();
        expect(await page.locator("#push-changes h3").textContent()).toBe("Changes against before.json: 2");
        expect(await page.locator("#push-changes p").first().textContent()).toBe(
          "users: 0 added, 1 removed, 1 deactivated, 0 reactivated, 0 changed",
        );
      } finally {
        await page.close();
      }
    });

    it("says a first push has nothing to compare with, and shows the refusal of the service's own guard with its list", async () => {
      const guarded = await startServer({ maxDeletes: 2 });
      const page = await open(guarded.url);
      try {
        await pushFrom(page, people("eight.json", 8), "7");
        await page.locator("#push-status", { hasText: "Synced eight.json into app account 7." }).waitFor();
        expect(await page.locator("#push-changes").textContent()).toBe(
          "Nothing to compare with: app account 7 has no sync the service can tell of: a first push, or a service that keeps no history (choose the file it holds to compare with).",
        );
        // 3 users gone: within the page's guard (10), past the service's (2)
        await pushFrom(page, people("five.json", 5), "7");
        await page.locator("#push-status", { hasText: "was refused (409)" }).waitFor();
        expect(await page.locator("#push-status").textContent()).toMatch(
          /^PUT \/v1\.0\/services\/sync\/custom was refused \(409\): the sync would take away 3 users .* First: user5@example\.com, user6@example\.com, user7@example\.com\./,
        );
        expect(await page.locator("#push-changes p").nth(3).textContent()).toBe(
          "users taken away: 3 (the guard allows 10)",
        );
        expect(await activeUsers(guarded.url, 7)).toBe(8);
        await page.click("#push-anyway");
        await page.locator("#push-status", { hasText: "Synced five.json into app account 7." }).waitFor();
        expect(await activeUsers(guarded.url, 7)).toBe(5);
      } finally {
        await page.close();
        await guarded.close();
      }
    });
  });

  it("opens the HTML report offline, its filters working", async () => {
    const report = join(dir, "report.html");
    const made = await runCli(["validate", fixture("invalid/user.email.format.json"), "--format", "html"]);
    expect(made.code).toBe(1);
    writeFileSync(report, made.stdout);
    const { page, requests, errors } = await openPage(browser);
    try {
      await page.context().setOffline(true);
      await page.goto(`file://${report}`);
      expect(await page.locator(".banner").textContent()).toBe("invalid — 1 error, 0 warnings");
      expect(await page.locator(".shown").textContent()).toBe("1 of 1 shown");
      await page.locator(".filters input[value=error]").uncheck();
      expect(await page.locator(".shown").textContent()).toBe("0 of 1 shown");
      expect(requests).toEqual([`file://${report}`]);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it("validates a 25 MB file in a worker: the progress bar moves and the page answers clicks meanwhile", async () => {
    const page = await open();
    try {
      const big = join(dir, "big.json");
      writeFileSync(big, bigDocument(210_000));
      expect(statSync(big).size).toBeGreaterThan(25_000_000);
      // what the page's own thread did while the worker read: each click handled, and the progress then
      await page.evaluate(() => {
        const seen: { value: number; running: boolean }[] = [];
        const values: number[] = [];
        Object.assign(window, { seen, values });
        const bar = document.getElementById("progress") as HTMLProgressElement;
        new MutationObserver(() => values.push(bar.value)).observe(bar, { attributes: true });
        document.getElementById("account")?.addEventListener("click", () => {
          const progress = document.getElementById("progress") as HTMLProgressElement;
          seen.push({ value: progress.value, running: !document.getElementById("progress-row")?.hidden });
        });
      });
      await page.setInputFiles("#file", big);
      await page.waitForFunction(
        () => (document.getElementById("progress") as HTMLProgressElement).value > 0,
      );
      await page.click("#account");
      await page.keyboard.type("7");
      await page.locator("#result .banner.valid").waitFor();
      const { seen, values } = await page.evaluate(() => {
        const { seen, values } = window as unknown as {
          seen: { value: number; running: boolean }[];
          values: number[];
        };
        return { seen, values };
      });
      // the bar moved: several values between empty and full, in order
      const between = values.filter((v) => v > 0 && v < 1);
      expect(new Set(between).size).toBeGreaterThanOrEqual(2);
      expect(between).toEqual([...between].sort((a, b) => a - b));
      expect(seen[0]?.running).toBe(true);
      expect(seen[0]?.value).toBeGreaterThan(0);
      expect(seen[0]?.value).toBeLessThan(1);
      expect(await page.inputValue("#account")).toBe("7");
      expect(await page.locator("#result .stats").first().textContent()).toContain("210,000 users");
    } finally {
      await page.close();
    }
  });
});
