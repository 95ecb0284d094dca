// A job file as a user writes it: the jobs a run gets from it (environment, defaults, paths
// beside the file, secrets read from files and known to the redaction), and every mistake at
// its line and column before anything runs.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { JobFileError, readJobText } from "../../src/jobs/readJobFile.js";
import { redactText } from "../../src/text/redact.js";
import { root } from "../support/paths.js";

const dir = mkdtempSync(join(tmpdir(), "syncfile-jobfile-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const path = join(dir, "people.job.yaml");

/** The mistakes `text` is refused for, as `file:line:column: message` without the file. */
function mistakes(text: string, env: NodeJS.ProcessEnv = {}): string[] {
  try {
    readJobText(text, path, { env });
  } catch (error) {
    if (error instanceof JobFileError)
      return error.problems.map((p) => `${p.line}:${p.column}: ${p.message}`);
    throw error;
  }
  throw new Error("the job file was read");
}

const PEOPLE = `# people.job.yaml
jobs:
  - name: people
    source: { file: "exports/people-*.csv" }
    profile: bamboohr
    service:
      url: "\${SYNCFILE_BASE_URL}"
      apiKey: "\${SYNCFILE_API_KEY}"
      appAccount: \${APP_ACCOUNT}
    guard: { maxDeletes: 50 }
    schedule: { cron: "0 2 * * *", timezone: Europe/Berlin }
    notify:
      - webhook: "\${SLACK_WEBHOOK_URL}"
      - email: { to: it-ops@example.com, smtp: "\${SMTP_URL:-smtp://mailer:s3cret-smtp@localhost:2525}" }
        on: [refused, failed]
`;

describe("a job file", () => {
  it("gives its jobs with the environment's values, its defaults, and paths beside the file", () => {
    const env = {
      SYNCFILE_BASE_URL: "https://api.example.com",
      SYNCFILE_API_KEY: "key-from-env-1234",
      APP_ACCOUNT: "42",
      SLACK_WEBHOOK_URL: "https://hooks.example.com/services/T0/B0/secret-hook",
      SYNCFILE_STATE_DIR: join(dir, "state"),
    };
    const saved = process.env.SYNCFILE_STATE_DIR;
    process.env.SYNCFILE_STATE_DIR = env.SYNCFILE_STATE_DIR;
    try {
      const [job] = readJobText(PEOPLE, path, { env });
      expect(job).toEqual({
        name: "people",
        source: { kind: "file", path: join(dir, "exports/people-*.csv"), settleSeconds: 60 },
        read: { profile: "bamboohr" },
        format: null,
        service: { url: "https://api.example.com", apiKey: "key-from-env-1234", appAccount: 42 },
        guard: { maxDeletes: 50, allowEmpty: false },
        mode: "live",
        schedule: { cron: "0 2 * * *", timezone: "Europe/Berlin" },
        notify: [
          {
            kind: "webhook",
            url: "https://hooks.example.com/services/T0/B0/secret-hook",
            on: ["refused", "failed", "invalid", "recovered"],
          },
          {
            kind: "email",
            to: ["it-ops@example.com"],
            from: null,
            smtp: "smtp://mailer:s3cret-smtp@localhost:2525",
            on: ["refused", "failed"],
          },
        ],
        state: join(dir, "state", "jobs", "people"),
        keepDays: 30,
      });
    } finally {
      if (saved === undefined) delete process.env.SYNCFILE_STATE_DIR;
      else process.env.SYNCFILE_STATE_DIR = saved;
    }
    // every secret it read is one the redaction removes, wherever a message quotes it
    const said = redactText(
      "key key-from-env-1234, hook https://hooks.example.com/services/T0/B0/secret-hook, smtp://mailer:s3cret-smtp@localhost:2525",
    );
    expect(said).not.toMatch(/key-from-env-1234|secret-hook|s3cret-smtp/);
  });

  it("reads a secret from a file, as systemd credentials and Kubernetes secrets give it", () => {
    writeFileSync(join(dir, "api-key"), "key-from-file-5678\n");
    const hr = { name: "hr", email: "Work mail" };
    writeFileSync(join(dir, "hr.mapping.json"), JSON.stringify(hr));
    const [job] = readJobText(
      `jobs:
  - name: hr
    source: { command: [./export.sh, --all] }
    mapping: hr.mapping.json
    service: { url: "https://api.example.com", apiKey_file: ./api-key, appAccount: "7" }
    mode: staging
    state: ./state/hr
    keep: 7
`,
      path,
      { env: {} },
    );
    expect(job).toMatchObject({
      source: { kind: "command", command: ["./export.sh", "--all"], cwd: dir },
      read: { mapping: { path: join(dir, "hr.mapping.json"), document: hr } },
      service: { apiKey: "key-from-file-5678", appAccount: 7 },
      mode: "staging",
      state: join(dir, "state/hr"),
      keepDays: 7,
      schedule: null,
    });
    expect(redactText("key-from-file-5678")).not.toContain("key-from-file-5678");
  });

  it("says a variable that is not set where it is written, and takes a default", () => {
    expect(mistakes(PEOPLE, { APP_ACCOUNT: "42" })).toEqual([
      "7:13: error: the environment variable SYNCFILE_BASE_URL is not set (write ${SYNCFILE_BASE_URL:-default} for a default)",
      "8:16: error: the environment variable SYNCFILE_API_KEY is not set (write ${SYNCFILE_API_KEY:-default} for a default)",
      "13:19: error: the environment variable SLACK_WEBHOOK_URL is not set (write ${SLACK_WEBHOOK_URL:-default} for a default)",
    ]);
    // $$ is a dollar; ${X:-d} takes d when X is empty, ${X-d} only when it is unset
    const [job] = readJobText(
      `jobs:
  - name: a
    source: { http: { url: "\${BASE-https://x.example.com}/users", headers: { Authorization: "Bearer $$\${TOKEN:-t0}" } } }
    service: { url: "https://api.example.com", apiKey: "k", appAccount: 1 }
`,
      path,
      { env: { TOKEN: "" } },
    );
    expect(job?.source).toEqual({
      kind: "http",
      url: "https://x.example.com/users",
      headers: { Authorization: "Bearer $t0" },
    });
  });

  it("says each field it does not know, each wrong value, each missing field at its place", () => {
    expect(
      mistakes(`jobs:
  - name: People
    source: { file: x.csv, command: [a] }
    profil: bamboohr
    service:
      url: "ftp://x"
      appAccount: -3
    guard: { maxDeletes: lots }
    notify:
      - webhook: https://h.example.com/abc
        on: [synced, exploded]
  - name: other
    source: { file: y.csv }
`),
    ).toEqual([
      "2:11: error: jobs[0].name must be a name of lower-case letters, digits and '-', e.g. \"people\"",
      "3:13: error: jobs[0].source must be one source: {file}, {command}, {http}, {sql}, {ldap}, {scim} or {s3}",
      "4:5: error: jobs[0].profil is not a field here; the fields here are name, source, profile, mapping, format, service, guard, mode, schedule, notify, state, keep",
      "6:12: error: jobs[0].service.url must be an http:// or https:// URL",
      "7:19: error: jobs[0].service.appAccount must be the app account's id, a whole number ≥ 1",
      "8:26: error: jobs[0].guard.maxDeletes must be a number of users ≥ 0",
      "11:22: error: jobs[0].notify[0].on[1] must be synced, unchanged, refused, failed, invalid or recovered",
      "12:5: error: jobs[1] needs service",
    ]);
  });

  it("says a YAML mistake, a key written twice, a second job of one name, a schedule that cannot run", () => {
    expect(mistakes("jobs:\n  - name: a\n    source: {file: a.csv\n")).toEqual([
      "4:1: error: Flow map in block collection must be sufficiently indented and end with a }",
    ]);
    expect(mistakes("jobs: []\njobs: []\n")[0]).toMatch(/^2:1: error: Map keys must be unique/);
    const service = 'service: { url: "https://api.example.com", apiKey: k, appAccount: 1 }';
    expect(
      mistakes(`jobs:
  - name: a
    source: { file: a.csv }
    ${service}
    schedule: { cron: "61 * * * *" }
  - name: a
    source: { file: b.csv }
    ${service}
    schedule: { cron: "0 2 * * *", timezone: Mars/Olympus }
`),
    ).toEqual([
      "5:23: error: jobs[0].schedule.cron is not a cron expression: CronPattern: Invalid value for minute: 61",
      '6:11: error: jobs[1].name names a second job "a"',
      "9:46: error: jobs[1].schedule.timezone is not a time zone this machine knows: Mars/Olympus (e.g. Europe/Berlin, UTC)",
    ]);
    expect(mistakes("")).toEqual(["1:1: error: the job file needs jobs"]);
    expect(mistakes("- a\n")).toEqual([
      "1:1: error: the job file must be a mapping with a list of jobs: jobs: [{name, source, service}]",
    ]);
  });

  it("reads the job file docs/jobs.md shows, as it says", () => {
    const page = readFileSync(join(root, "docs", "jobs.md"), "utf8");
    const yaml = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? "";
    const [job, ...others] = readJobText(yaml, path, {
      env: {
        SYNCFILE_API_KEY: "k",
        SLACK_WEBHOOK_URL: "https://hooks.example.com/x",
        SMTP_URL: "smtp://u:p@mail.example.com:587",
      },
    });
    expect(others).toEqual([]);
    expect(job).toMatchObject({
      name: "people",
      source: { kind: "file", path: "/srv/exports/people-*.csv", settleSeconds: 60 },
      read: { profile: "bamboohr" },
      service: { url: "https://api.example.com", appAccount: 42 },
      guard: { maxDeletes: 25 },
      notify: [{ kind: "webhook" }, { kind: "email", to: ["it-ops@example.com"] }],
      state: "/var/lib/syncfile/people",
      keepDays: 30,
    });
  });
});
