// The built-in profiles: a mapping document for each export admins have, shipped as JSON in the
// form users write theirs (profiles/*.json), and which one a header is. A profile is picked
// when every name its `detect` lists is in the header, compared trimmed and in any case but
// otherwise exactly: a vendor writes its header the same way each time, and the service's own
// layout (what convert writes: email, firstName, externalStatus…) matches none of them.

import type { MappingDocument } from "./MappingDocument.js";
import activeDirectory from "./profiles/active-directory.json" with { type: "json" };
import atlassian from "./profiles/atlassian.json" with { type: "json" };
import bamboohr from "./profiles/bamboohr.json" with { type: "json" };
import entraId from "./profiles/entra-id.json" with { type: "json" };
import githubOrg from "./profiles/github-org.json" with { type: "json" };
import googleWorkspace from "./profiles/google-workspace.json" with { type: "json" };
import jumpcloud from "./profiles/jumpcloud.json" with { type: "json" };
import ldap from "./profiles/ldap.json" with { type: "json" };
import microsoft365 from "./profiles/microsoft-365.json" with { type: "json" };
import okta from "./profiles/okta.json" with { type: "json" };
import scim from "./profiles/scim.json" with { type: "json" };
import slack from "./profiles/slack.json" with { type: "json" };
import toriiSheets from "./profiles/torii-sheets.json" with { type: "json" };

/** The built-in profiles, in the order `syncfile profiles` lists them. */
export const PROFILES: readonly MappingDocument[] = [
  googleWorkspace,
  okta,
  entraId,
  microsoft365,
  jumpcloud,
  bamboohr,
  slack,
  githubOrg,
  atlassian,
  toriiSheets,
  scim,
  activeDirectory,
  ldap,
] as MappingDocument[];

/** The built-in profile called `name`, or undefined. */
export function profileNamed(name: string): MappingDocument | undefined {
  return PROFILES.find((p) => p.name === name);
}

/**
 * The profile whose `detect` names are all in the header (the one naming most of them, the first
 * of equals), or null.
 */
export function detectProfile(header: readonly string[]): MappingDocument | null {
  const names = new Set(header.map((n) => n.trim().toLowerCase()));
  let best: MappingDocument | null = null;
  let bestCount = 0;
  for (const profile of PROFILES) {
    const detect = profile.detect ?? [];
    const all = detect.every((item) =>
      (typeof item === "string" ? [item] : item).some((name) => names.has(name.toLowerCase())),
    );
    if (all && detect.length > bestCount) {
      best = profile;
      bestCount = detect.length;
    }
  }
  return best;
}
