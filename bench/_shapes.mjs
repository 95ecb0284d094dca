// The shapes of data file the bench measures (issue 54: a fast path tuned to one shape is not
// fast): each a name (for BENCH_SHAPES), what it is, its file's suffix and its generator's options.

/** The JSON shapes: the same kind of users, laid out and licensed in other ways. */
export const JSON_SHAPES = [
  { name: "json-pretty", title: "pretty-printed, 20 licenses", suffix: "", options: {} },
  {
    name: "json-lines",
    title: "compact, a user a line",
    suffix: "-compact",
    options: { layout: "user-a-line" },
  },
  {
    name: "json-one-line",
    title: "compact on one line",
    suffix: "-one-line",
    options: { layout: "one-line" },
  },
  {
    name: "json-license-heavy",
    title: "every user in 1–3 licenses",
    suffix: "-license-heavy",
    options: { holders: "every-user", slimUsers: true },
  },
  {
    name: "json-many-licenses",
    title: "10 000 licenses of 1–5 users",
    suffix: "-many-licenses",
    options: { holders: "few-each", licenses: 10_000 },
  },
];

/** The CSV shapes: an HR export's rows with 0–3, exactly one or no license a user. */
export const CSV_SHAPES = [
  { name: "csv-licenses", title: "rows of 0–3 licenses a user", suffix: "", options: {} },
  {
    name: "csv-one-license",
    title: "a row a user, one license",
    suffix: "-one-row-each",
    options: { held: "one" },
  },
  {
    name: "csv-no-licenses",
    title: "users without licenses",
    suffix: "-no-licenses",
    options: { held: "none" },
  },
];

/** The shape called `name`, JSON or CSV, with its format; undefined when there is none. */
export function shapeNamed(name) {
  const json = JSON_SHAPES.find((shape) => shape.name === name);
  if (json) return { ...json, format: "json" };
  const csv = CSV_SHAPES.find((shape) => shape.name === name);
  return csv && { ...csv, format: "csv" };
}

/**
 * The shapes of `shapes` that `only` (BENCH_SHAPES: names, comma-separated) names, all without
 * it; a name of no shape is an error, so that a typo does not measure nothing.
 */
export function selectShapes(shapes, only) {
  if (!only) return shapes;
  const names = only.split(",").map((name) => name.trim());
  const unknown = names.filter((name) => !shapeNamed(name));
  if (unknown.length > 0)
    throw new Error(
      `BENCH_SHAPES: no shape ${unknown.join(", ")}; the shapes: ${[...JSON_SHAPES, ...CSV_SHAPES].map((s) => s.name).join(", ")}`,
    );
  return shapes.filter((shape) => names.includes(shape.name));
}
