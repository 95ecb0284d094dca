// Telling someone about a run: a webhook (a JSON POST whose `text` Slack and Microsoft Teams
// incoming webhooks show as it is, with the run's record beside it) or an e-mail (SMTP through
// nodemailer), each for the outcomes it asks for. Made from the run's record, after it is
// written: a notification that cannot be delivered is retried a few times and said on standard
// error, and never changes the run's outcome. No URL or password of theirs is ever printed.

import { hostname } from "node:os";
import { redactText } from "syncfile/internal/text/redact.js";
import { headline, runSummary } from "./describeRun.js";
import type { JobNotification } from "./Job.js";
import type { RunRecord } from "./runHistory.js";

/** How a notification is delivered: its tries, and the wait before each retry. */
export interface DeliveryOptions {
  tries?: number;
  backoffMs?: number;
  /** Said for each delivery that failed for good (default: standard error). */
  onFailure?: (message: string) => void;
}

/** How long a refusal that goes on is not notified again. */
export const QUIET_MS = 24 * 3600_000;

/**
 * Whether `record` is told to anyone: its outcome is one someone asks for, and it is not a
 * refusal like one already told within a day (a job refused every night tells once a day).
 */
export function worthTelling(record: RunRecord, history: readonly RunRecord[]): boolean {
  if (record.outcome !== "refused") return true;
  const since = Date.parse(record.end) - QUIET_MS;
  return !history.some((r) => r.outcome === "refused" && r.notified === true && Date.parse(r.end) > since);
}

/** Sends `record` to each of `notify` that asks for its outcome; resolves when all are done. */
export async function notifyRun(
  record: RunRecord,
  notify: readonly JobNotification[],
  options: DeliveryOptions = {},
): Promise<void> {
  const wanted = notify.filter((n) => n.on.includes(record.outcome));
  await Promise.all(
    wanted.map((n) =>
      deliver(() => (n.kind === "webhook" ? postWebhook(n.url, record) : sendEmail(n, record)), n, options),
    ),
  );
}

/** One notification, tried up to `tries` times; a failure for good is said, never thrown. */
async function deliver(
  send: () => Promise<void>,
  to: JobNotification,
  options: DeliveryOptions,
): Promise<void> {
  const tries = options.tries ?? 3;
  const say = options.onFailure ?? ((message: string) => process.stderr.write(`syncfile: ${message}\n`));
  for (let attempt = 1; ; attempt++) {
    try {
      await send();
      return;
    } catch (error) {
      if (attempt >= tries) {
        const what = to.kind === "webhook" ? "the webhook" : `the e-mail to ${to.to.join(", ")}`;
        say(redactText(`${what} could not be sent after ${tries} tries: ${(error as Error).message}`));
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, (options.backoffMs ?? 1000) * 2 ** (attempt - 1)));
    }
  }
}

async function postWebhook(url: string, record: RunRecord): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ text: runSummary(record), run: record }),
    signal: AbortSignal.timeout(15_000),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`it answered ${response.status} ${response.statusText}`.trim());
}

async function sendEmail(to: Extract<JobNotification, { kind: "email" }>, record: RunRecord): Promise<void> {
  // loaded here: a job without e-mail never loads nodemailer
  const { createTransport } = await import("nodemailer");
  const url = new URL(to.smtp);
  const transport = createTransport({
    host: url.hostname,
    port: Number(url.port || (url.protocol === "smtps:" ? 465 : 25)),
    secure: url.protocol === "smtps:",
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
  });
  try {
    await transport.sendMail({
      from: to.from ?? `syncfile <syncfile@${hostname()}>`,
      to: [...to.to],
      subject: headline(record),
      text: `${runSummary(record)}\n`,
    });
  } finally {
    transport.close();
  }
}
