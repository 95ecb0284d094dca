// A directory's entries as records: an LDAP search (ldap://, ldaps:// or StartTLS) read page by
// page with the paged results control, so that a directory capping a search at 1,000 entries
// (Active Directory's MaxPageSize, OpenLDAP's sizelimit) is read whole, and memory holds one
// page. Whatever fails — the connection, the bind, the search, a connection dropped half way —
// is a SourceError with the server's own words, redacted; the connection is always closed.

import { readFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import { type ConnectionOptions, connect as tlsConnect } from "node:tls";
import { Client, ResultCodeError } from "ldapts";
import { redactText, redactUrl } from "syncfile/internal/text/redact.js";
import { BASE64_ATTRIBUTES, recordOfEntry } from "./_ldapEntry.js";
import { SourceError } from "./SourceError.js";
import type { LdapSource } from "./SourceSpec.js";
import type { SourceRecord } from "./writeRecords.js";

// every user attribute, and ppolicy's lock: an operational attribute, which "*" leaves out, that
// alone tells a locked OpenLDAP account (a server without ppolicy ignores a name it does not know)
const EVERY_USER_ATTRIBUTE = ["*", "pwdAccountLockedTime"];

/**
 * The entries under `source.base` matching `source.filter` (the whole subtree), a record each:
 * `dn`, each attribute (one value a string, several a list; objectGUID and objectSid in
 * base64, photos and certificates left out) and, where their attributes are there, Active
 * Directory's `accountDisabled` ("true"/"false"), `lastLogon` (an ISO date) and `memberOfNames`
 * (the CN of each group). No attributes named: every user attribute, and pwdAccountLockedTime
 * (OpenLDAP's lock, which the ldap profile reads as the status). Pages are asked for as the
 * records are taken; `signal` ends the search with its reason, at once, and closes the connection.
 */
export async function* ldapRecords(source: LdapSource, signal?: AbortSignal): AsyncGenerator<SourceRecord> {
  const where = redactUrl(source.url);
  signal?.throwIfAborted();
  const tls = await tlsOptionsOf(source);
  // every socket the client opens, to be closed whatever happens: ldapts' unbind leaves alone a
  // connection still being made (a server that does not answer)
  const sockets = new Set<Socket>();
  const kept = <S extends Socket>(socket: S): S => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    return socket;
  };
  // the TLS options go to the connection of ldaps:// only: given to an ldap:// client too, they
  // break its StartTLS (ldapts 8.2 then loses the handshake)
  const secure = source.url.toLowerCase().startsWith("ldaps:");
  const client = new Client({
    url: source.url,
    ...(tls && secure ? { tlsOptions: tls } : {}),
    createConnection: ((...args: Parameters<typeof connect>) => kept(connect(...args))) as typeof connect,
    createSecureConnection: ((...args: Parameters<typeof tlsConnect>) =>
      kept(tlsConnect(...args))) as typeof tlsConnect,
  });
  const step = async <T>(doing: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await untilAborted(work(), signal);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new SourceError(`${doing} ${where}: ${redactText(messageOf(error))}`);
    }
  };
  try {
    if (source.startTLS) await step("cannot start TLS with", () => client.startTLS({ ...tls }));
    const { bindDN } = source;
    if (bindDN !== null)
      await step(`cannot bind as ${bindDN} to`, () => client.bind(bindDN, source.password ?? ""));
    const pages = client.searchPaginated(source.base, {
      scope: "sub",
      filter: source.filter,
      attributes: source.attributes !== null ? [...source.attributes] : EVERY_USER_ATTRIBUTE,
      explicitBufferAttributes: [...BASE64_ATTRIBUTES],
      paged: { pageSize: source.pageSize },
    });
    while (true) {
      const page = await step(`the search of ${source.base} failed on`, () => pages.next());
      if (page.done) break;
      for (const entry of page.value.searchEntries) {
        signal?.throwIfAborted();
        yield recordOfEntry(entry);
      }
    }
  } finally {
    await client.unbind().catch(() => {});
    for (const socket of sockets) socket.destroy();
  }
}

/** `work`, or the abort's reason as soon as `signal` aborts (what `work` does after is no one's). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  work.catch(() => {});
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** The TLS options for ldaps:// and StartTLS: the CA file's certificates when there is one. */
async function tlsOptionsOf(source: LdapSource): Promise<ConnectionOptions | null> {
  if (source.ca === null) return source.url.startsWith("ldaps:") || source.startTLS ? {} : null;
  try {
    return { ca: await readFile(source.ca, "utf8") };
  } catch (error) {
    throw new SourceError(`cannot read the CA file ${source.ca}: ${messageOf(error)}`);
  }
}

/**
 * An error's message on one line: for the server's answer, its result (the code's name and
 * number) and the server's own diagnostic, which OpenLDAP often leaves empty and Active
 * Directory fills (`80090308: LdapErr: … data 52e`); for the connection's, Node's message.
 */
function messageOf(error: unknown): string {
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ": ").trim();
  if (error instanceof ResultCodeError) {
    // ldapts writes "<diagnostic> Code: 0x31", and names the result by its class
    const diagnostic = message.replace(/\s*Code: 0x[0-9a-f]+$/i, "").trim();
    const name = error.name
      .replace(/Error$/, "")
      .replace(/([a-z])([A-Z])/g, "$1 $2")
      .toLowerCase();
    const result = name === "result code" || name === "" ? "an error" : name;
    return `${result} (LDAP result ${error.code})${diagnostic ? `: ${diagnostic}` : ""}`;
  }
  return message || String((error as { code?: unknown }).code ?? "failed");
}
