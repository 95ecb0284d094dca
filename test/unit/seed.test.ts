// The seed of `syncfile serve --seed`: checked against schemas/seed.schema.json, each refusal
// naming the place in the seed and saying what fits there.

import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { checkSeed, SeedError } from "../../src/server/seed.js";
import { fixture } from "../support/paths.js";

const app = [{ name: "GitHub", users: 3 }];
const campaign = (executions: unknown[], more: Record<string, unknown> = {}) => ({
  campaigns: [{ id: 1, name: "Q1", applications: app, executions, ...more }],
});
const refusal = (seed: unknown) => {
  try {
    checkSeed(seed, "seed.json");
  } catch (error) {
    expect(error).toBeInstanceOf(SeedError);
    return (error as Error).message;
  }
  return "accepted";
};

describe("the seed", () => {
  it("accepts the seed in fixtures/, absolute and relative times", () => {
    const seed = JSON.parse(readFileSync(fixture("seed.json"), "utf8"));
    expect(checkSeed(seed)).toBe(seed);
  });

  it.each([
    [null, "seed.json: the seed must be a JSON object with campaigns"],
    [{}, "seed.json: campaigns must be an array"],
    [{ campaigns: {} }, "seed.json: campaigns must be an array"],
    [{ campaigns: [{}] }, "seed.json: campaigns[0].id must be a whole number ≥ 1"],
    [campaign([], { id: 0 }), "seed.json: campaigns[0].id must be a whole number ≥ 1"],
    [campaign([], { name: "" }), "seed.json: campaigns[0].name must be a non-empty string"],
    [
      campaign([], { applications: [] }),
      "seed.json: campaigns[0].applications must list the applications reviewed, as {name, users}",
    ],
    [
      campaign([], { applications: [{ name: "x" }] }),
      "seed.json: campaigns[0].applications[0].users must be a whole number ≥ 0",
    ],
    [
      campaign([], { applications: [{ name: "x", users: 1.5 }] }),
      "seed.json: campaigns[0].applications[0].users must be a whole number ≥ 0",
    ],
    [campaign([], { executions: undefined }), "seed.json: campaigns[0].executions must be an array"],
    [
      campaign([{ id: 2, state: "done", startedSecondsAgo: 1 }]),
      "seed.json: campaigns[0].executions[0].state must be inProgress, completed, endedEarly or archived",
    ],
    [
      campaign([{ id: 2, state: "completed", completesInSeconds: 1 }]),
      "seed.json: campaigns[0].executions[0] needs startTime (ISO 8601) or startedSecondsAgo",
    ],
    [
      campaign([{ id: 2, state: "inProgress", startedSecondsAgo: 5, startTime: "2026-01-01T00:00:00Z" }]),
      "seed.json: campaigns[0].executions[0] needs startTime (ISO 8601) or startedSecondsAgo",
    ],
    [
      campaign([
        { id: 2, state: "completed", startTime: "2026-01-01", completionTime: "2026-01-02T00:00:00Z" },
      ]),
      "seed.json: campaigns[0].executions[0].startTime must be an ISO 8601 date-time with a time zone, such as 2026-04-01T09:00:00Z",
    ],
    [
      campaign([{ id: 2, state: "completed", startTime: "2026-02-30T00:00:00Z", completesInSeconds: 1 }]),
      "seed.json: campaigns[0].executions[0].startTime must be an ISO 8601 date-time with a time zone, such as 2026-04-01T09:00:00Z",
    ],
    [
      campaign([{ id: 2, state: "archived", startTime: "2026-01-01T00:00:00Z" }]),
      "seed.json: campaigns[0].executions[0] is finished (completed, endedEarly or archived): it needs completionTime or completesInSeconds",
    ],
    [
      campaign([{ id: 2, state: "inProgress", startedSecondsAgo: 5, completesInSeconds: 3 }]),
      "seed.json: campaigns[0].executions[0] is inProgress: give its final state instead, with completesInSeconds",
    ],
  ])("refuses %j: %s", (seed, message) => {
    expect(refusal(seed)).toBe(message);
  });
});
