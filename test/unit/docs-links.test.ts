// The README and the pages of docs/ link to each other, to the repository's files and to
// headings: every relative link must reach a file that exists, every #anchor a heading of its
// page as GitHub names it, and every page must be reachable from the README or the index.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../support/paths.js";

const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

/** The text of a page with its fenced blocks blanked, so that code is never read as markup. */
function prose(page: string): string {
  const text = readFileSync(join(root, page), "utf8");
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, " "));
}

/** GitHub's anchor for a heading's text: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1") // a link is its text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a page's headings, a repeated one with `-1`, `-2`… as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of markdown.matchAll(/^#{1,6}[ \t]+(.*?)[ \t#]*$/gm)) {
    const base = slug(m[1] ?? "");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** The relative links of a page (markdown links and images; inline code left out). */
function links(page: string): string[] {
  const text = prose(page).replace(/`[^`\n]*`/g, (code) => " ".repeat(code.length));
  const out: string[] = [];
  for (const m of text.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1] ?? "";
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target);
  }
  return out;
}

describe("GitHub's anchors", () => {
  it("follow its slug rules", () => {
    expect(slug("`syncfile serve`: the service on your machine")).toBe(
      "syncfile-serve-the-service-on-your-machine",
    );
    expect(slug("`syncfile push`, `download`, `reports`: the client")).toBe(
      "syncfile-push-download-reports-the-client",
    );
    expect(slug("Decisions where the interface document is silent")).toBe(
      "decisions-where-the-interface-document-is-silent",
    );
    expect(slug("max_errors and the CSV row — a-b")).toBe("max_errors-and-the-csv-row--a-b");
    expect(slug("Normalisation & money (Müller)")).toBe("normalisation--money-müller");
    expect([...anchors("# A\n## A\n### A\n## B\n")]).toEqual(["a", "a-1", "a-2", "b"]);
  });
});

describe.each(pages.filter((page) => links(page).length > 0))("%s", (page) => {
  it.each(links(page))("links to %s, which resolves", (link) => {
    const [path = "", anchor] = link.split("#");
    const target = path === "" ? page : normalize(join(dirname(page), decodeURI(path)));
    expect(relative(root, join(root, target)).startsWith(".."), `${link} leaves the repository`).toBe(false);
    expect(existsSync(join(root, target)), `${page}: ${link}: no file ${target}`).toBe(true);
    if (anchor !== undefined) {
      expect(target.endsWith(".md"), `${page}: ${link}: an anchor into a file that is not a page`).toBe(true);
      const headings = anchors(prose(target));
      expect([...headings], `${page}: ${link}: no heading #${anchor} in ${target}`).toContain(anchor);
    }
  });
});

it("every page of docs/ is linked from the README or from docs/README.md", () => {
  const linked = new Set(
    ["README.md", "docs/README.md"].flatMap((page) =>
      existsSync(join(root, page))
        ? links(page).map((link) => normalize(join(dirname(page), link.split("#")[0] ?? "")))
        : [],
    ),
  );
  for (const page of pages.slice(1)) {
    if (page !== "docs/README.md") expect([...linked], `${page} is linked from nowhere`).toContain(page);
  }
});
