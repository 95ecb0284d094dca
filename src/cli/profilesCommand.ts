// `syncfile profiles [NAME]`: the built-in profiles, each with the export it reads and the
// columns each field comes from; with a name, that profile's mapping document, to start one's own.

import { Command } from "commander";
import { Mapping } from "syncfile/internal/mapping/Mapping.js";
import { PROFILES, profileNamed } from "syncfile/internal/mapping/profiles.js";
import { writeOut } from "./_io.js";
import { EXIT } from "./exitCodes.js";
import { UsageError } from "./UsageError.js";

/** The `profiles` command; its exit code goes to `result.code`. */
export function profilesCommand(result: { code: number }): Command {
  return new Command("profiles")
    .description("list the exports syncfile reads with no flag, and the columns each field comes from")
    .argument("[name]", "a profile: print its mapping document (JSON), to start a mapping of your own from")
    .addHelpText(
      "after",
      `
A CSV file or workbook whose header is one of these exports is read through its profile:
the report says which. --profile NAME forces one, --profile none reads the service's layout
only, and --mapping FILE reads through a mapping document of yours (the form printed by
syncfile profiles NAME; its schema is schemas/mapping.schema.json).

Examples:
  $ syncfile profiles
  $ syncfile profiles okta > my-okta.json`,
    )
    .action((name: string | undefined) => {
      if (name !== undefined) {
        const profile = profileNamed(name);
        if (!profile) {
          throw new UsageError(
            `no profile ${JSON.stringify(name)}: the profiles are ${PROFILES.map((p) => p.name).join(", ")}`,
          );
        }
        writeOut(process.stdout, `${JSON.stringify(profile, null, 2)}\n`);
      } else {
        writeOut(process.stdout, PROFILES.map(describe).join("\n"));
      }
      result.code = EXIT.ok;
    });
}

/** A profile as `syncfile profiles` lists it: name and title, what it is recognised by, the columns by field. */
function describe(document: (typeof PROFILES)[number]): string {
  const mapping = new Mapping(document);
  const names = (columns: readonly string[]) => columns.map((c) => JSON.stringify(c)).join(" or ");
  const detect = (document.detect ?? [])
    .map((item) => (typeof item === "string" ? JSON.stringify(item) : names(item)))
    .join(", ");
  const lines = [`${mapping.name}: ${mapping.title}`, `  recognised by: ${detect}`];
  for (const { field, columns } of mapping.reads()) lines.push(`  ${field.padEnd(16)} ${names(columns)}`);
  if (mapping.license !== null)
    lines.push(`  ${"every user".padEnd(16)} license ${JSON.stringify(mapping.license)}`);
  return `${lines.join("\n")}\n`;
}
