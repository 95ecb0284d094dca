// The deployments docs/jobs.md shows, from the files in examples/jobs/ it shows them from: the
// systemd units pass `systemd-analyze verify` and hand the job file the credentials it reads;
// the Kubernetes objects mount what the job file names; the GitHub Actions workflow's job runs
// against the project's own server as the workflow runs it — its state restored from a cache,
// then the cache lost — and its guard still holds.

import { execFile } from "node:child_process";
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { Cron } from "croner";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import { readJobText } from "../../src/jobs/readJobFile.js";
import type { SyncfileServer } from "../../src/server/index.js";
import { runCli } from "../support/cli.js";
import { root } from "../support/paths.js";
import { call, KEY, removeDataDirs, startServer } from "../support/server.js";

const run = promisify(execFile);
const examples = join(root, "examples", "jobs");
const text = (path: string) => readFileSync(join(examples, path), "utf8");
const version = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string }).version;
const work = mkdtempSync(join(tmpdir(), "syncfile-deploy-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A systemd unit's settings: section → key → values, in order. */
function unit(source: string): Map<string, Map<string, string[]>> {
  const sections = new Map<string, Map<string, string[]>>();
  let section = new Map<string, string[]>();
  for (const line of source.split("\n")) {
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) {
      section = new Map();
      sections.set(header[1] as string, section);
    }
    const setting = /^(\w+)=(.*)$/.exec(line);
    if (setting)
      section.set(setting[1] as string, [...(section.get(setting[1] as string) ?? []), setting[2] as string]);
  }
  return sections;
}

describe("docs/jobs.md's deployments", () => {
  it("shows each example file as it is", () => {
    const page = readFileSync(join(root, "docs", "jobs.md"), "utf8");
    const shown = [
      ...page.matchAll(
        /^\[`(examples\/jobs\/[^`]+)`\]\([^)]+\)[^\n]*\n(?:[^\n]+\n)?\n```\w+\n([\s\S]*?)```/gm,
      ),
    ];
    expect(shown.map((m) => m[1]).sort()).toEqual([
      "examples/jobs/github-actions/people.job.yaml",
      "examples/jobs/github-actions/syncfile-people.yml",
      "examples/jobs/kubernetes/syncfile-people.yaml",
      "examples/jobs/systemd/people.job.yaml",
      "examples/jobs/systemd/syncfile-people.service",
      "examples/jobs/systemd/syncfile-people.timer",
    ]);
    for (const [, path, block] of shown)
      expect(block, path).toBe(readFileSync(join(root, path as string), "utf8"));
  });

  it("systemd: the units verify, and give the job file its credentials and its state folder", async () => {
    const service = unit(text("systemd/syncfile-people.service"));
    const timer = unit(text("systemd/syncfile-people.timer"));
    expect(service.get("Service")?.get("Type")).toEqual(["oneshot"]);
    const [exec] = service.get("Service")?.get("ExecStart") ?? [];
    expect(exec).toBe("/usr/local/bin/syncfile run /etc/syncfile/people.job.yaml");
    expect(text("systemd/people.job.yaml")).toContain("installed as /etc/syncfile/people.job.yaml");
    expect(timer.get("Timer")?.get("OnCalendar")).toEqual(["*-*-* 02:00 Europe/Berlin"]);
    expect(timer.get("Timer")?.get("Persistent")).toEqual(["true"]);

    // systemd's own reading of them, the program they start being one that is there
    const dir = join(work, "systemd");
    mkdirSync(dir);
    const shim = join(dir, "syncfile");
    writeFileSync(shim, "#!/bin/sh\nexit 0\n");
    chmodSync(shim, 0o755);
    writeFileSync(
      join(dir, "syncfile-people.service"),
      text("systemd/syncfile-people.service").replace("/usr/local/bin/syncfile", shim),
    );
    writeFileSync(join(dir, "syncfile-people.timer"), text("systemd/syncfile-people.timer"));
    const verified = await run("systemd-analyze", [
      "verify",
      join(dir, "syncfile-people.service"),
      join(dir, "syncfile-people.timer"),
    ]);
    expect(verified.stderr).toBe("");
    const calendar = await run("systemd-analyze", ["calendar", "*-*-* 02:00 Europe/Berlin"]);
    expect(calendar.stdout).toContain("Normalized form: *-*-* 02:00:00 Europe/Berlin");

    // each credential the service loads is one the job file reads, and nothing else is read
    const credentials = join(dir, "credentials");
    mkdirSync(credentials);
    const loaded = (service.get("Service")?.get("LoadCredential") ?? []).map(
      (c) => c.split(":")[0] as string,
    );
    expect(loaded).toEqual(["api-key", "slack-webhook"]);
    writeFileSync(join(credentials, "api-key"), "key-from-credentials\n");
    writeFileSync(join(credentials, "slack-webhook"), "https://hooks.example.com/services/T0/B0/x\n");
    const [job] = readJobText(text("systemd/people.job.yaml"), "/etc/syncfile/people.job.yaml", {
      env: { CREDENTIALS_DIRECTORY: credentials, SYNCFILE_BASE_URL: "https://api.example.com" },
    });
    expect(job?.service.apiKey).toBe("key-from-credentials");
    expect(job?.notify).toMatchObject([
      { kind: "webhook", url: "https://hooks.example.com/services/T0/B0/x" },
    ]);
    expect(service.get("Service")?.get("Environment")).toEqual(["SYNCFILE_BASE_URL=https://api.example.com"]);
    // StateDirectory=syncfile is /var/lib/syncfile
    expect(service.get("Service")?.get("StateDirectory")).toEqual(["syncfile"]);
    expect(job?.state).toBe("/var/lib/syncfile/people");
  });

  it("Kubernetes: a CronJob one at a time, in its time zone, mounting what the job file names", () => {
    const source = text("kubernetes/syncfile-people.yaml");
    const objects = parseAllDocuments(source).map((d) => d.toJS()) as Record<string, any>[];
    expect(objects.map((o) => o.kind)).toEqual(["ConfigMap", "PersistentVolumeClaim", "CronJob"]);
    const [config, claim, cron] = objects as [Record<string, any>, Record<string, any>, Record<string, any>];
    expect(cron.spec).toMatchObject({
      concurrencyPolicy: "Forbid",
      timeZone: "Europe/Berlin",
      schedule: "0 2 * * *",
    });
    expect(() => new Intl.DateTimeFormat("en", { timeZone: cron.spec.timeZone })).not.toThrow();
    expect(
      new Cron(cron.spec.schedule, { timezone: cron.spec.timeZone, paused: true }).nextRun(),
    ).toBeInstanceOf(Date);
    const job = cron.spec.jobTemplate.spec;
    expect(job.backoffLimit).toBe(0);
    const pod = job.template.spec;
    expect(pod.restartPolicy).toBe("Never");
    const [container] = pod.containers;
    expect(container.command).toEqual([
      "npx",
      "--yes",
      `syncfile@${version}`,
      "run",
      "/etc/syncfile/people.job.yaml",
    ]);

    // every mount is of a volume, and each volume is what the job file reads there
    const volumes = new Map<string, Record<string, any>>(
      pod.volumes.map((v: Record<string, any>) => [v.name, v]),
    );
    const mounts = new Map<string, string>(
      container.volumeMounts.map((m: { name: string; mountPath: string }) => [m.name, m.mountPath]),
    );
    expect([...mounts.keys()].every((name) => volumes.has(name))).toBe(true);
    expect(volumes.get("job")?.configMap.name).toBe(config.metadata.name);
    expect(Object.keys(config.data)).toEqual(["people.job.yaml"]);
    expect(`${mounts.get("job")}/people.job.yaml`).toBe(container.command.at(-1));
    expect(volumes.get("state")?.persistentVolumeClaim.claimName).toBe(claim.metadata.name);
    const secret = volumes.get("secrets")?.secret;
    expect(secret.secretName).toBe(cron.metadata.name);
    // the Secret the header's kubectl command makes holds every key the pod takes from it
    const made = [...source.matchAll(/--from-(?:file|literal)=([\w-]+)=/g)].map((m) => m[1]);
    const taken = [
      ...secret.items.map((i: { key: string }) => i.key),
      ...container.env.flatMap((e: Record<string, any>) => e.valueFrom?.secretKeyRef?.key ?? []),
    ];
    expect(made.sort()).toEqual(taken.sort());

    // the job file, read with the pod's environment and its secrets where the pod mounts them
    const secrets = join(work, "k8s-secrets");
    mkdirSync(secrets);
    for (const { key, path } of secret.items) writeFileSync(join(secrets, path), `${key}-value`);
    const env = Object.fromEntries(
      container.env.map((e: Record<string, any>) => [
        e.name,
        e.value ?? `${e.valueFrom.secretKeyRef.key}-value`,
      ]),
    );
    const jobFile = (config.data["people.job.yaml"] as string).replaceAll(
      mounts.get("secrets") as string,
      secrets,
    );
    const [read] = readJobText(jobFile, "/etc/syncfile/people.job.yaml", { env });
    expect(read?.service.apiKey).toBe("api-key-value");
    expect(read?.source).toMatchObject({
      kind: "http",
      url: env.HR_EXPORT_URL,
      headers: { Authorization: "Bearer hr-token-value" },
    });
    expect(read?.state.startsWith(`${mounts.get("state")}/`)).toBe(true);
  });
});

describe("the GitHub Actions workflow's job", () => {
  let server: SyncfileServer;
  let hr: Server;
  let hooks: Server;
  let employees = 40;
  const told: { text: string }[] = [];
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  beforeAll(async () => {
    server = await startServer();
    // the HR system's report, for the token the job sends
    hr = createServer((request, response) => {
      if (request.headers.authorization !== "Bearer hr-token-7") return void response.writeHead(401).end();
      const rows = Array.from(
        { length: employees },
        (_, i) => `${i + 1},P,${i + 1},p${i + 1}@example.com,Active`,
      );
      response.writeHead(200, { "content-type": "text/csv" });
      response.end(`Employee #,First Name,Last Name,Work Email,Status\n${rows.join("\n")}\n`);
    });
    hooks = createServer((request, response) => {
      let body = "";
      request
        .on("data", (chunk) => (body += chunk))
        .on("end", () => {
          told.push(JSON.parse(body));
          response.end();
        });
    });
    await Promise.all([hr, hooks].map((s) => new Promise<void>((done) => s.listen(0, "127.0.0.1", done))));
  });
  afterAll(async () => {
    await Promise.all([hr, hooks].map((s) => new Promise((done) => s.close(done))));
    await server.close();
    await removeDataDirs();
  });

  it("keeps its state in the cache it restores and saves, and holds its guard when the cache is gone", async () => {
    const workflow = parse(text("github-actions/syncfile-people.yml")) as Record<string, any>;
    const [schedule] = workflow.on.schedule;
    expect(new Cron(schedule.cron, { timezone: "UTC", paused: true }).nextRun()).toBeInstanceOf(Date);
    expect(workflow.concurrency).toEqual({ group: "syncfile-people", "cancel-in-progress": false });
    const steps = workflow.jobs.sync.steps as Record<string, any>[];
    const restore = steps.find((s) => s.uses?.startsWith("actions/cache/restore@"));
    const save = steps.find((s) => s.uses?.startsWith("actions/cache/save@"));
    const upload = steps.find((s) => s.uses?.startsWith("actions/upload-artifact@"));
    const step = steps.find((s) => typeof s.run === "string") as Record<string, any>;
    expect(save?.if).toBe("always()");
    expect(save?.with).toEqual({ path: restore?.with.path, key: restore?.with.key });
    expect(step.run).toBe(`npx --yes syncfile@${version} run jobs/people.job.yaml`);
    const jobFile = text("github-actions/people.job.yaml");
    // every variable the job file reads is one the step sets
    const named = [...new Set([...jobFile.matchAll(/\$\{(\w+)\}/g)].map((m) => m[1]))].sort();
    expect(Object.keys(step.env).sort()).toEqual(named);

    const values: Record<string, string> = {
      SYNCFILE_BASE_URL: server.url,
      HR_EXPORT_URL: `${url(hr)}/reports/people.csv`,
      SYNCFILE_API_KEY: KEY,
      HR_TOKEN: "hr-token-7",
      SLACK_WEBHOOK_URL: `${url(hooks)}/services/T0/B0/x`,
    };
    const cache = join(work, "actions-cache");
    /** One workflow run on a fresh runner: checkout, restore, the job (syncfile as the step runs it), save. */
    const runner = async (restored: boolean) => {
      const checkout = mkdtempSync(join(work, "runner-"));
      mkdirSync(join(checkout, "jobs"));
      writeFileSync(join(checkout, "jobs", "people.job.yaml"), jobFile);
      const state = join(checkout, restore?.with.path);
      if (restored) cpSync(cache, state, { recursive: true });
      const [, , ...args] = (step.run as string).split(" ");
      const result = await runCli(args.slice(1), { cwd: checkout, env: { ...process.env, ...values } });
      rmSync(cache, { recursive: true, force: true });
      cpSync(state, cache, { recursive: true });
      return { result, state, checkout };
    };
    const first = await runner(false);
    expect(first.result.code, first.result.stderr).toBe(0);
    expect(first.result.stdout).toMatch(/^people: synced; 40 users/);
    const second = await runner(true);
    expect(second.result.stdout).toMatch(/^people: unchanged — the source is what this job last pushed/);

    // a week without runs: the cache is evicted, and the night's export comes cut short
    rmSync(cache, { recursive: true });
    employees = 5;
    const third = await runner(false);
    expect(third.result.code, third.result.stdout).toBe(5);
    expect(third.result.stdout).toMatch(/^people: refused — this run takes away 35 users/);
    const users = await call(server.url, "GET", "/v1.0/appAccounts/42/users?limit=100");
    expect((users.body.users as unknown[]).length).toBe(40);
    expect(told.at(-1)?.text).toMatch(/^syncfile job people: refused by its guard\n/);
    // the artifact: the refused run's changes and page
    const artifact = resolve(third.checkout, upload?.with.path);
    expect(readdirSync(artifact).some((f) => f.endsWith(".html"))).toBe(true);
    for (const output of [first, second, third].map((r) => r.result.stdout + r.result.stderr)) {
      expect(output).not.toContain(KEY);
      expect(output).not.toContain("hr-token-7");
    }
  });
});
