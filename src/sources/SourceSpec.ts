// Where a job's data is, as a job file says it (src/jobs/readJobFile.ts makes it): a file (the
// newest match of a path or glob), a command's standard output, an HTTP GET's body; or the
// records of a database query, a directory search, a SCIM endpoint, a paginated JSON API, or an
// object in a bucket.

/** A source, its paths absolute and its secrets known to the redaction. */
export type SourceSpec =
  | { kind: "file"; path: string; settleSeconds: number }
  | { kind: "command"; command: readonly string[]; cwd: string }
  | { kind: "http"; url: string; headers: Readonly<Record<string, string>> }
  | SqlSource
  | LdapSource
  | ScimSource
  | JsonApiSource
  | S3Source;

/** A query's rows: PostgreSQL (postgres://) or MySQL and MariaDB (mysql://). */
export interface SqlSource {
  kind: "sql";
  /** The database's URL, its password in it (or in `password`). */
  url: string;
  password: string | null;
  query: string;
  /** TLS: a CA file to verify the server with (TLS required), or required without one. */
  tls: { ca: string | null } | null;
}

/** A directory's entries: an LDAP search, paged. */
export interface LdapSource {
  kind: "ldap";
  /** ldap:// or ldaps://. */
  url: string;
  bindDN: string | null;
  password: string | null;
  base: string;
  filter: string;
  /** The attributes asked for; null: every user attribute. */
  attributes: readonly string[] | null;
  /** Upgrade an ldap:// connection with StartTLS. */
  startTLS: boolean;
  /** A CA file to verify the server with. */
  ca: string | null;
  /** Entries a page (paged results control). */
  pageSize: number;
}

/** A SCIM 2.0 service provider's /Users, page by page. */
export interface ScimSource {
  kind: "scim";
  /** The base URL (…/scim/v2): /Users is read under it. */
  url: string;
  token: string;
  /** A SCIM filter (userType eq "Employee"), or null. */
  filter: string | null;
  pageSize: number;
}

/** A paginated JSON API: the records in each page, and how to get the next one. */
export interface JsonApiSource {
  kind: "json-api";
  url: string;
  headers: Readonly<Record<string, string>>;
  /** Where the records are in a page: a dotted path ("data", "result.users"); "" the page itself. */
  records: string;
  next: JsonApiNext;
}

/** How a JSON API's next page is asked for. */
export type JsonApiNext =
  | { kind: "none" }
  /** A Link header's rel="next" (RFC 8288), as GitHub's and Okta's APIs give it. */
  | { kind: "link" }
  /** A cursor in the page (`path`), sent back as the parameter `param`; none: the last page. */
  | { kind: "cursor"; path: string; param: string }
  /** A page number `param`, from `start`; a page of no records is the last. */
  | { kind: "page"; param: string; start: number }
  /** An offset `param` moving by the records read, with `limit` (sent as `limitParam`) a page. */
  | { kind: "offset"; param: string; limitParam: string; limit: number };

/** An object in an S3-compatible bucket, or the newest under a prefix. */
export interface S3Source {
  kind: "s3";
  /**
   * s3://bucket/key, or s3://bucket/prefix/ for the newest object under it; ?region=,
   * ?endpoint= (MinIO, R2…) and ?forcePathStyle=true as syncfile serve's --storage takes them.
   */
  url: string;
  settleSeconds: number;
}

/** The sources whose data are records, written into a CSV file for the job. */
export const RECORD_SOURCES = ["sql", "ldap", "scim", "json-api"] as const;
