// A real OpenLDAP server for the directory source's tests: slapd (Debian's slapd package) run as
// the test's own process on a free port of 127.0.0.1, with a configuration of its own in a
// temporary folder — the mdb backend; the schemas core, cosine, inetorgperson and nis, ppolicy
// (for pwdAccountLockedTime) and a few of Active Directory's attributes under their own OIDs;
// a size limit of 1,000 entries a search, as Active Directory's MaxPageSize, that only paging
// gets past — its entries loaded with slapadd before it starts, and removed when it stops.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { freePort } from "./ports.js";
import { waitFor } from "./waitFor.js";

const SLAPD = "/usr/sbin/slapd";
const SLAPADD = "/usr/sbin/slapadd";
const SCHEMAS = "/etc/ldap/schema";

/** The suffix of the test directory. */
export const BASE = "dc=example,dc=org";

// Active Directory's attributes, under Microsoft's OIDs, on an auxiliary class of the test's own
const AD_SCHEMA = `
attributetype ( 1.2.840.113556.1.4.8 NAME 'userAccountControl'
  EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.1696 NAME 'lastLogonTimestamp'
  EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.52 NAME 'lastLogon'
  EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.222 NAME 'memberOf'
  EQUALITY distinguishedNameMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.12 )
attributetype ( 1.2.840.113556.1.4.656 NAME 'userPrincipalName'
  EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.221 NAME 'sAMAccountName'
  EQUALITY caseIgnoreMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.15 SINGLE-VALUE )
attributetype ( 1.2.840.113556.1.4.2 NAME 'objectGUID'
  EQUALITY octetStringMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.40 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.4203.666.11.1 NAME 'syncfileAdUser' AUXILIARY
  MAY ( userAccountControl $ lastLogonTimestamp $ lastLogon $ memberOf $ userPrincipalName $
        sAMAccountName $ objectGUID ) )
`;

/** A running slapd. */
export interface Slapd {
  /** ldap://127.0.0.1:PORT */
  readonly url: string;
  /** ldaps://localhost:PORT when started with a certificate, else null. */
  readonly ldapsUrl: string | null;
  /** The process, to kill it half way through a search. */
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** Why slapd cannot be run here (its binaries are missing), or null. */
export function slapdMissing(): string | null {
  for (const binary of [SLAPD, SLAPADD]) {
    if (!existsSync(binary)) return `${binary} is not installed (Debian's slapd package)`;
  }
  return null;
}

/** Why slapd cannot start here (tried with the suffix's entry alone), or null when it can. */
export async function slapdCannotStart(): Promise<string | null> {
  try {
    const slapd = await startSlapd(
      `dn: ${BASE}\nobjectClass: dcObject\nobjectClass: organization\ndc: example\no: Example\n`,
    );
    await slapd.stop();
    return null;
  } catch (error) {
    return `slapd cannot start: ${(error as Error).message.split("\n")[0]}`;
  }
}

/**
 * Starts slapd with `ldif` loaded (the suffix's entry first); `tls`: PEM files of a certificate
 * and its key for ldaps:// and StartTLS.
 */
export async function startSlapd(ldif: string, tls?: { cert: string; key: string }): Promise<Slapd> {
  const dir = await mkdtemp(join(tmpdir(), "syncfile-slapd-"));
  try {
    await mkdir(join(dir, "data"));
    await writeFile(join(dir, "ad.schema"), AD_SCHEMA);
    const conf = join(dir, "slapd.conf");
    await writeFile(
      conf,
      [
        ...["core", "cosine", "inetorgperson", "nis"].map((s) => `include ${SCHEMAS}/${s}.schema`),
        `include ${join(dir, "ad.schema")}`,
        `pidfile ${join(dir, "slapd.pid")}`,
        "modulepath /usr/lib/ldap",
        "moduleload back_mdb",
        "moduleload ppolicy",
        // a search stops at 1,000 entries; a paged one goes on, 1,000 a page at most
        "sizelimit size.soft=1000 size.hard=1000 size.pr=1000 size.prtotal=unlimited",
        ...(tls ? [`TLSCertificateFile ${tls.cert}`, `TLSCertificateKeyFile ${tls.key}`] : []),
        "database mdb",
        "maxsize 268435456",
        `suffix "${BASE}"`,
        `rootdn "cn=admin,${BASE}"`,
        `directory ${join(dir, "data")}`,
        "overlay ppolicy",
        "",
      ].join("\n"),
    );
    await writeFile(join(dir, "entries.ldif"), ldif);
    await promisify(execFile)(SLAPADD, ["-q", "-f", conf, "-l", join(dir, "entries.ldif")]);
    const port = await freePort();
    const tlsPort = tls ? await freePort() : null;
    const urls = [`ldap://127.0.0.1:${port}/`, ...(tlsPort ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])];
    const child = spawn(SLAPD, ["-f", conf, "-h", urls.join(" "), "-d", "0"], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let exited = false;
    child.once("exit", () => {
      exited = true;
    });
    await waitFor(async () => {
      if (exited) throw new Error(`slapd exited: ${stderr.trim()}`);
      return (await canConnect(port)) && (tlsPort === null || (await canConnect(tlsPort)));
    }, "slapd to listen");
    return {
      url: `ldap://127.0.0.1:${port}`,
      ldapsUrl: tlsPort ? `ldaps://localhost:${tlsPort}` : null,
      process: child,
      async stop() {
        if (!exited) {
          child.kill("SIGTERM");
          await once(child, "exit");
        }
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Whether a TCP connection to 127.0.0.1:`port` is accepted. */
function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
