// The seed of `syncfile serve --seed`: access-review campaigns and their executions, checked
// against schemas/seed.schema.json (ajv), each refusal said as the schema's `x-message` after
// where it is (campaigns[0].executions[1].state must be …).

import { readFileSync } from "node:fs";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import type { ExecutionState } from "syncfile/internal/http/operations.js";
import { addFormats } from "syncfile/internal/schema/addFormats.js";
import seedSchema from "../../schemas/seed.schema.json" with { type: "json" };

/** One application of a campaign, with how many of its users are reviewed. */
export interface SeedApplication {
  name: string;
  users: number;
}

/** An execution in the seed: times absolute (ISO 8601) or relative to the first start. */
export interface SeedExecution {
  id: number;
  /** What it is once finished: completed, endedEarly (concluded by an admin) or archived. */
  state: ExecutionState;
  startTime?: string;
  startedSecondsAgo?: number;
  completionTime?: string;
  completesInSeconds?: number;
}

/** The seed file. */
export interface Seed {
  campaigns: { id: number; name: string; applications: SeedApplication[]; executions: SeedExecution[] }[];
}

/** A seed file that cannot be used: the message says what is wrong where. */
export class SeedError extends Error {
  override readonly name = "SeedError";
}

/** Reads and checks a seed file; throws a SeedError that says what is wrong where. */
export function readSeed(path: string): Seed {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new SeedError(`cannot read the seed ${path}: ${(error as Error).message}`);
  }
  return checkSeed(parsed, path);
}

let validate: ValidateFunction | null = null;

/** Checks a seed object; throws a SeedError that names `where` and the place in it. */
export function checkSeed(seed: unknown, where = "the seed"): Seed {
  if (!validate) {
    // strictRequired is an ajv lint (required names in oneOf branches), not a JSON Schema rule
    const ajv = new Ajv2020({ strict: true, strictRequired: false, verbose: true });
    ajv.addKeyword({ keyword: "x-message", schemaType: "string" });
    addFormats(ajv, ["date-time"]);
    validate = ajv.compile(seedSchema);
  }
  if (validate(seed)) return seed as Seed;
  throw new SeedError(`${where}: ${refusal(validate.errors ?? [])}`);
}

/**
 * The sentence of the keyword that failed: ajv (stopping at the first failure) lists what
 * failed inside a oneOf, anyOf or if before the keyword itself, so the last error with a
 * sentence is the one to say — an `if` stands for its then or else, listed just before it.
 */
function refusal(errors: readonly ErrorObject[]): string {
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i] as ErrorObject;
    if (error.keyword === "if") continue;
    const schema = (error.parentSchema ?? {}) as Record<string, unknown>;
    if (error.keyword === "required") {
      const name = (error.params as { missingProperty: string }).missingProperty;
      const property = (schema.properties as Record<string, Record<string, unknown>> | undefined)?.[name];
      if (property === undefined) continue; // a branch of a oneOf or anyOf: its parent says it
      return `${place(error.instancePath, name)} ${property["x-message"] ?? "is missing"}`;
    }
    if (typeof schema["x-message"] === "string") return `${place(error.instancePath)} ${schema["x-message"]}`;
  }
  return errors[0]?.message ?? "is not a seed";
}

/** A JSON Pointer as JavaScript reads it: /campaigns/0/id → campaigns[0].id. */
function place(pointer: string, last?: string): string {
  const parts = pointer.split("/").slice(1);
  if (last !== undefined) parts.push(last);
  const path = parts.map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`)).join("");
  return path.startsWith(".") ? path.slice(1) : path || "the seed";
}
