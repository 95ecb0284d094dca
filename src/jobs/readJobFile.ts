// A job file read from its text: YAML (the `yaml` package keeps where each node is), `${VAR}`
// and `${VAR:-default}` from the environment, checked against schemas/job.schema.json, each
// mistake at its line and column before anything runs; then the jobs as a run uses them, with
// paths made absolute beside the file, `*_file` secrets read, and every secret given to the
// one redaction (src/text/redact.ts) before any message can quote it.

import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { Cron } from "croner";
import { describeIoError } from "syncfile/internal/bytes/ioError.js";
import { stateHome } from "syncfile/internal/bytes/stateFile.js";
import { PROFILES, profileNamed } from "syncfile/internal/mapping/profiles.js";
import { MappingError, readMapping } from "syncfile/internal/mapping/readMapping.js";
import { place, schemaProblems } from "syncfile/internal/schema/schemaProblems.js";
import { schemas } from "syncfile/internal/schema/schemas.js";
import { getValidators } from "syncfile/internal/schema/validators.js";
import { pointerSegments } from "syncfile/internal/text/pointer.js";
import { addSecret, addSecretsOf } from "syncfile/internal/text/redact.js";
import {
  type Document,
  isMap,
  isScalar,
  LineCounter,
  type Node,
  parseDocument,
  Scalar,
  visit,
  type YAMLMap,
} from "yaml";
import type { JsonApiNext } from "../sources/SourceSpec.js";
import type { Job, JobNotification, JobSource, Outcome } from "./Job.js";

/** A mistake in a job file, where it is. */
export interface JobFileProblem {
  line: number;
  column: number;
  message: string;
}

/** A job file that cannot be used: each mistake at its place. */
export class JobFileError extends Error {
  override readonly name = "JobFileError";
  constructor(
    readonly file: string,
    readonly problems: readonly JobFileProblem[],
  ) {
    super(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join("\n"));
  }
}

/** What a job file is read with: the environment for ${VAR}, and where a secret's file is read. */
export interface ReadJobOptions {
  env?: NodeJS.ProcessEnv;
  /** Reads a `*_file` secret (default: the file's text, one trailing line break left out). */
  readSecret?: (path: string) => string;
}

/** The job file as written: what the schema describes. */
interface JobFileDocument {
  jobs: WrittenJob[];
}

interface WrittenJob {
  name: string;
  source: {
    file?: string;
    settle?: number;
    command?: string[];
    http?: { url: string; headers?: Record<string, string>; records?: string; next?: WrittenNext };
    sql?: {
      url?: string;
      url_file?: string;
      password?: string;
      password_file?: string;
      query: string;
      tls?: true | { ca: string };
    };
    ldap?: {
      url: string;
      bindDN?: string;
      password?: string;
      password_file?: string;
      base: string;
      filter?: string;
      attributes?: string[];
      startTLS?: boolean;
      ca?: string;
      pageSize?: number;
    };
    scim?: { url: string; token?: string; token_file?: string; filter?: string; pageSize?: number };
    s3?: string;
  };
  profile?: string;
  mapping?: string;
  format?: Job["format"];
  service: { url: string; apiKey?: string; apiKey_file?: string; appAccount: number | string };
  guard?: { maxDeletes?: number; allowEmpty?: boolean };
  mode?: Job["mode"];
  schedule?: { cron: string; timezone?: string };
  notify?: {
    webhook?: string;
    webhook_file?: string;
    email?: { to: string | string[]; from?: string; smtp?: string; smtp_file?: string };
    on?: Outcome[];
  }[];
  state?: string;
  keep?: number;
}

/** How a JSON API's next page is asked for, as a job file writes it. */
type WrittenNext =
  | "link"
  | { cursor: string; param: string }
  | { page: string; start?: number }
  | { offset: string; limit: number; limitParam?: string };

/** The outcomes a notification is sent for when it does not say. */
export const DEFAULT_OUTCOMES: readonly Outcome[] = ["refused", "failed", "invalid", "recovered"];
/** Days of runs kept when a job does not say. */
export const DEFAULT_KEEP_DAYS = 30;
/** Entries a page of an LDAP search, when a job does not say. */
export const DEFAULT_LDAP_PAGE = 500;
/** Users a page of a SCIM source, when a job does not say. */
export const DEFAULT_SCIM_PAGE = 100;
/** Seconds a file's size and time must stay the same before it is read, when a job does not say. */
export const DEFAULT_SETTLE_SECONDS = 60;

/** A ${VAR}, ${VAR:-default} (also when empty), ${VAR-default} (when unset), or $$ for a $. */
const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*))?\}|\$\{/g;

/** The jobs of the job file `path`; throws a JobFileError listing every mistake at its place. */
export function readJobFile(path: string, options: ReadJobOptions = {}): Job[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new JobFileError(path, [
      { line: 1, column: 1, message: `error: cannot be read: ${(error as Error).message}` },
    ]);
  }
  return readJobText(text, path, options);
}

/** The jobs of a job file's `text` (from `path`: messages name it, relative paths start beside it). */
export function readJobText(text: string, path: string, options: ReadJobOptions = {}): Job[] {
  const env = options.env ?? process.env;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const at = (offset: number) => {
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  if (doc.errors.length > 0) {
    throw new JobFileError(
      path,
      doc.errors.map((e) => ({ ...at(e.pos[0]), message: yamlMessage(e.message) })),
    );
  }
  const problems: JobFileProblem[] = [];
  expand(doc, env, (offset, message) => problems.push({ ...at(offset), message }));
  if (problems.length > 0) throw new JobFileError(path, problems);

  const written = doc.toJS() as unknown;
  const found = schemaProblems(schemas.job, getValidators().job, written ?? {}, WORDS);
  if (found.length > 0) {
    throw new JobFileError(
      path,
      inOrder(
        found.map((p) => ({
          ...at(offsetOf(doc, p.pointer, p.unknown === true)),
          message: `error: ${p.message}`,
        })),
      ),
    );
  }
  const file = written as JobFileDocument;
  const base = dirname(resolve(path));
  const jobs: Job[] = [];
  file.jobs.forEach((job, i) => {
    const problem = (pointer: string, message: string) =>
      problems.push({
        ...at(offsetOf(doc, `/jobs/${i}${pointer}`, false)),
        message: `error: ${place(`/jobs/${i}${pointer}`, "the job file")} ${message}`,
      });
    const resolved = resolveJob(job, base, options.readSecret ?? readSecretFile, problem);
    if (jobs.some((j) => j.name === job.name))
      problem("/name", `names a second job ${JSON.stringify(job.name)}`);
    if (resolved) jobs.push(resolved);
  });
  if (problems.length > 0) {
    throw new JobFileError(path, inOrder(problems));
  }
  return jobs;
}

const WORDS = {
  whole: "the job file",
  unknown: (pointer: string, known: readonly string[]) =>
    `is not a field ${pointer === "" ? "of a job file" : "here"}; ${known.length > 0 ? `the fields here are ${known.join(", ")}` : "none is"}`,
};

/**
 * Every scalar value's ${VAR} replaced from `env`, in place; a reference to a variable that is
 * not set (and has no default) said at its place. A plain scalar that was only references and
 * reads as a number or true/false becomes one (appAccount: ${APP_ACCOUNT}).
 */
function expand(
  doc: Document,
  env: NodeJS.ProcessEnv,
  problem: (offset: number, message: string) => void,
): void {
  visit(doc, {
    Scalar(key, node) {
      if (key === "key" || typeof node.value !== "string" || !node.value.includes("$")) return;
      const source = node.value;
      const start = (node.range?.[0] ?? 0) + (node.type === Scalar.PLAIN ? 0 : 1);
      let whole = true;
      const value = source.replace(
        REFERENCE,
        (
          match,
          name: string | undefined,
          how: string | undefined,
          fallback: string | undefined,
          index: number,
        ) => {
          if (match === "$$") {
            whole = false;
            return "$";
          }
          if (name === undefined) {
            problem(start + index, "error: ${ is not closed: write ${NAME} (or $$ for a $)");
            return match;
          }
          const set = env[name];
          if (set !== undefined && !(how === ":-" && set === "")) return set;
          if (fallback !== undefined) return fallback;
          problem(
            start + index,
            `error: the environment variable ${name} is not set (write \${${name}:-default} for a default)`,
          );
          return match;
        },
      );
      if (value === source) return;
      whole &&= /^(\$\{[^}]*\})+$/.test(source);
      node.value = whole && node.type === Scalar.PLAIN ? scalarOf(value) : value;
    },
  });
}

/** A substituted plain scalar as YAML reads it: 42, true; anything else stays text. */
function scalarOf(text: string): unknown {
  if (/^-?\d+$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  return text;
}

/** Where the value at `pointer` starts; `key`: where its key does (a field the schema does not know). */
function offsetOf(doc: Document, pointer: string, key: boolean): number {
  const path = pointerSegments(pointer).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  if (key && path.length > 0) {
    const parent = doc.getIn(path.slice(0, -1), true) as Node | undefined;
    const pair = isMap(parent)
      ? (parent as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === path[path.length - 1])
      : undefined;
    const start = (pair?.key as Node | undefined)?.range?.[0];
    if (start !== undefined) return start;
  }
  // the place itself, else the nearest place above it that the file has
  for (let depth = path.length; depth >= 0; depth--) {
    const node = (depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true)) as
      | Node
      | null
      | undefined;
    if (node?.range) return node.range[0];
  }
  return 0;
}

/** One job made ready to run, or null with its problems said. */
function resolveJob(
  job: WrittenJob,
  base: string,
  readSecret: (path: string) => string,
  problem: (pointer: string, message: string) => void,
): Job | null {
  const secret = (pointer: string, value: string | undefined, file: string | undefined): string | null => {
    if (value !== undefined) return value;
    try {
      return readSecret(resolve(base, file as string));
    } catch (error) {
      problem(`${pointer}_file`, `cannot read ${file}: ${describeIoError(error)}`);
      return null;
    }
  };
  const apiKey = secret("/service/apiKey", job.service.apiKey, job.service.apiKey_file);
  addSecret(apiKey);
  if (job.schedule) checkSchedule(job.schedule, problem);
  const notify: JobNotification[] = [];
  (job.notify ?? []).forEach((n, k) => {
    const on = n.on ?? DEFAULT_OUTCOMES;
    if (n.email) {
      const smtp = secret(`/notify/${k}/email/smtp`, n.email.smtp, n.email.smtp_file);
      if (smtp === null) return;
      addSecretsOf(smtp);
      const to = typeof n.email.to === "string" ? [n.email.to] : n.email.to;
      notify.push({ kind: "email", to, from: n.email.from ?? null, smtp, on });
    } else {
      const url = secret(`/notify/${k}/webhook`, n.webhook, n.webhook_file);
      if (url === null) return;
      addSecret(url); // a webhook's URL is its credential
      notify.push({ kind: "webhook", url, on });
    }
  });
  const source = sourceOf(job.source, base, secret);
  if (apiKey === null) return null;
  return {
    name: job.name,
    source,
    read: readThrough(job, base, problem),
    format: job.format ?? null,
    service: { url: job.service.url, apiKey, appAccount: Number(job.service.appAccount) },
    guard: {
      maxDeletes: job.guard?.maxDeletes ?? null,
      allowEmpty: job.guard?.allowEmpty ?? false,
    },
    mode: job.mode ?? "live",
    schedule: job.schedule ? { cron: job.schedule.cron, timezone: job.schedule.timezone ?? null } : null,
    notify,
    state: job.state ? resolve(base, job.state) : defaultState(job.name),
    keepDays: job.keep ?? DEFAULT_KEEP_DAYS,
  };
}

/** The profile or mapping a job reads its source through, checked now: a mistake there is the job file's. */
function readThrough(
  job: WrittenJob,
  base: string,
  problem: (pointer: string, message: string) => void,
): Job["read"] {
  if (job.profile !== undefined) {
    if (profileNamed(job.profile) === undefined) {
      problem("/profile", `is no profile: the profiles are ${PROFILES.map((p) => p.name).join(", ")}`);
    }
    return { profile: job.profile };
  }
  if (job.mapping === undefined) return {};
  const path = resolve(base, job.mapping);
  try {
    return { mapping: { path, document: readMapping(readFileSync(path, "utf8"), path) } };
  } catch (error) {
    const why =
      error instanceof MappingError
        ? `has mistakes:\n${error.message}`
        : `cannot be read: ${(error as Error).message}`;
    problem("/mapping", `${path} ${why}`);
    return {};
  }
}

function sourceOf(
  source: WrittenJob["source"],
  base: string,
  secret: (pointer: string, value: string | undefined, file: string | undefined) => string | null,
): JobSource {
  if (source.file !== undefined) {
    return {
      kind: "file",
      path: resolve(base, source.file),
      settleSeconds: source.settle ?? DEFAULT_SETTLE_SECONDS,
    };
  }
  if (source.command !== undefined) return { kind: "command", command: source.command, cwd: base };
  if (source.sql !== undefined) {
    const sql = source.sql;
    const url = secret("/source/sql/url", sql.url, sql.url_file) ?? "";
    addSecretsOf(url);
    const password =
      sql.password !== undefined || sql.password_file !== undefined
        ? secret("/source/sql/password", sql.password, sql.password_file)
        : null;
    addSecret(password);
    const tls = sql.tls === undefined ? null : { ca: sql.tls === true ? null : resolve(base, sql.tls.ca) };
    return { kind: "sql", url, password, query: sql.query, tls };
  }
  if (source.ldap !== undefined) {
    const ldap = source.ldap;
    const password =
      ldap.password !== undefined || ldap.password_file !== undefined
        ? secret("/source/ldap/password", ldap.password, ldap.password_file)
        : null;
    addSecret(password);
    addSecretsOf(ldap.url);
    return {
      kind: "ldap",
      url: ldap.url,
      bindDN: ldap.bindDN ?? null,
      password,
      base: ldap.base,
      filter: ldap.filter ?? "(objectClass=person)",
      attributes: ldap.attributes ?? null,
      startTLS: ldap.startTLS ?? false,
      ca: ldap.ca === undefined ? null : resolve(base, ldap.ca),
      pageSize: ldap.pageSize ?? DEFAULT_LDAP_PAGE,
    };
  }
  if (source.scim !== undefined) {
    const scim = source.scim;
    const token = secret("/source/scim/token", scim.token, scim.token_file) ?? "";
    addSecret(token);
    addSecretsOf(scim.url);
    return {
      kind: "scim",
      url: scim.url,
      token,
      filter: scim.filter ?? null,
      pageSize: scim.pageSize ?? DEFAULT_SCIM_PAGE,
    };
  }
  if (source.s3 !== undefined) {
    addSecretsOf(source.s3);
    return { kind: "s3", url: source.s3, settleSeconds: source.settle ?? DEFAULT_SETTLE_SECONDS };
  }
  const http = source.http as NonNullable<WrittenJob["source"]["http"]>;
  for (const value of Object.values(http.headers ?? {})) addSecret(value); // Authorization: …
  addSecretsOf(http.url);
  if (http.records === undefined) return { kind: "http", url: http.url, headers: http.headers ?? {} };
  return {
    kind: "json-api",
    url: http.url,
    headers: http.headers ?? {},
    records: http.records,
    next: nextOf(http.next),
  };
}

/** A JSON API's next page, as a source says it. */
function nextOf(next: WrittenNext | undefined): JsonApiNext {
  if (next === undefined) return { kind: "none" };
  if (next === "link") return { kind: "link" };
  if ("cursor" in next) return { kind: "cursor", path: next.cursor, param: next.param };
  if ("page" in next) return { kind: "page", param: next.page, start: next.start ?? 1 };
  return { kind: "offset", param: next.offset, limit: next.limit, limitParam: next.limitParam ?? "limit" };
}

/** A cron expression croner cannot read, or a time zone the machine does not know, said at its place. */
function checkSchedule(
  schedule: NonNullable<WrittenJob["schedule"]>,
  problem: (pointer: string, message: string) => void,
): void {
  if (schedule.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat("en", { timeZone: schedule.timezone });
    } catch {
      problem(
        "/schedule/timezone",
        `is not a time zone this machine knows: ${schedule.timezone} (e.g. Europe/Berlin, UTC)`,
      );
      return;
    }
  }
  try {
    new Cron(schedule.cron, {
      paused: true,
      ...(schedule.timezone ? { timezone: schedule.timezone } : {}),
    }).stop();
  } catch (error) {
    problem("/schedule/cron", `is not a cron expression: ${(error as Error).message}`);
  }
}

/** A job's state folder when it does not say: push's state folder, a folder per job. */
function defaultState(name: string): string {
  return join(stateHome(), "jobs", name);
}

/** A secret's file as systemd credentials and Kubernetes secrets write it: one trailing line break left out. */
function readSecretFile(path: string): string {
  return readFileSync(path, "utf8").replace(/\r?\n$/, "");
}

/** Problems in the order of the file. */
function inOrder(problems: JobFileProblem[]): JobFileProblem[] {
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** A YAML error's message without the position the problem's place already gives. */
function yamlMessage(message: string): string {
  return `error: ${message.replace(/ at line \d+, column \d+.*$/s, "")}`;
}
