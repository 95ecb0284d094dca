// `syncfile job check` as an admin runs it before the first night: each job in a line or two
// when the file is right, each mistake at its line and column when it is not, and no secret
// (the API key, the webhook's URL, the SMTP password) in either.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";

const work = mkdtempSync(join(tmpdir(), "syncfile-cli-jobs-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECRETS = {
  SYNCFILE_API_KEY: "sk-job-check-secret-0042",
  SLACK_WEBHOOK_URL: "https://hooks.example.com/services/T000/B000/hook-secret-9",
  SMTP_URL: "smtp://mailer:smtp-secret-77@127.0.0.1:2525",
};

const JOBS = `jobs:
  - name: people
    source: { file: "exports/people-*.csv" }
    profile: bamboohr
    service: { url: "https://api.example.com", apiKey: "\${SYNCFILE_API_KEY}", appAccount: 42 }
    schedule: { cron: "0 2 * * *", timezone: Europe/Berlin }
    notify:
      - webhook: "\${SLACK_WEBHOOK_URL}"
      - email: { to: it-ops@example.com, smtp: "\${SMTP_URL}" }
    state: ./state/people
  - name: contractors
    source: { command: [./export-contractors.sh] }
    mapping: contractors.mapping.json
    mode: staging
    service: { url: "https://api.example.com", apiKey: "\${SYNCFILE_API_KEY}", appAccount: 43 }
    state: ./state/contractors
`;

describe("syncfile job check", () => {
  it("lists each job of a file that can run, and shows no secret", async () => {
    const file = join(work, "people.job.yaml");
    writeFileSync(file, JOBS);
    writeFileSync(join(work, "contractors.mapping.json"), '{"name": "contractors", "email": "Mail"}');
    const r = await runCli(["job", "check", file], { env: { ...process.env, ...SECRETS } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      `${file}: 2 jobs
  people: file ${join(work, "exports/people-*.csv")}, read profile bamboohr; pushed to app account 42 of https://api.example.com
    schedule 0 2 * * * (Europe/Berlin); state ${join(work, "state/people")}; notifies a webhook, e-mail to it-ops@example.com
  contractors: command ./export-contractors.sh, read mapping ${join(work, "contractors.mapping.json")}; staging (never pushed) to app account 43 of https://api.example.com
    schedule when run; state ${join(work, "state/contractors")}
`,
    );
  });

  it("says every mistake at its line and column, and exits 2; no secret in them", async () => {
    const file = join(work, "broken.job.yaml");
    writeFileSync(
      file,
      JOBS.replace("profile: bamboohr", "profil: bamboohr").replace("appAccount: 43", "appAccount: x"),
    );
    const r = await runCli(["job", "check", file], {
      env: { ...process.env, SYNCFILE_API_KEY: SECRETS.SYNCFILE_API_KEY, SMTP_URL: SECRETS.SMTP_URL },
    });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(
      `syncfile: the job file ${file} cannot be used:
${file}:8:19: error: the environment variable SLACK_WEBHOOK_URL is not set (write \${SLACK_WEBHOOK_URL:-default} for a default)
`,
    );
    const fixed = await runCli(["job", "check", file], { env: { ...process.env, ...SECRETS } });
    expect(fixed.stderr).toBe(
      `syncfile: the job file ${file} cannot be used:
${file}:4:5: error: jobs[0].profil is not a field here; the fields here are name, source, profile, mapping, format, service, guard, mode, schedule, notify, state, keep
${file}:15:91: error: jobs[1].service.appAccount must be the app account's id, a whole number ≥ 1
`,
    );
    for (const secret of Object.values(SECRETS)) expect(r.stderr + fixed.stderr).not.toContain(secret);
  });
});
