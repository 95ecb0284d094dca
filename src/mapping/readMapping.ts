// A mapping document read from its text: JSON syntax and the schema's problems each at its line
// and column in the document (jsonc-parser keeps where each value is).

import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { lineColumns } from "../text/lineColumns.js";
import { pointerSegments } from "../text/pointer.js";
import { nestingPast } from "./_nestingPast.js";
import { mappingProblems } from "./checkMapping.js";
import type { MappingDocument } from "./MappingDocument.js";

/**
 * How deep a mapping's arrays and objects may nest before the text is parsed. A mapping needs 4
 * (status.values.Active's object); the bound leaves room for the schema to say what is wrong
 * with a little more, and keeps jsonc-parser, which recurses once a level, far from the stack's end.
 */
const MAX_NESTING = 16;

/** A problem of a mapping document, where it is. */
export interface MappingDocumentProblem {
  line: number;
  column: number;
  pointer: string;
  message: string;
}

/** How many problems a MappingError lists by default: as many as a report lists errors. */
export const MAX_MAPPING_PROBLEMS = 1000;

/** How a mapping document is read. */
export interface ReadMappingOptions {
  /** Problems to list, the first in the document; `total` counts them all. Default 1000. */
  maxProblems?: number;
}

/** A mapping document that cannot be used: its first problems, each at its place, and how many there are. */
export class MappingError extends Error {
  override readonly name = "MappingError";
  constructor(
    readonly file: string,
    readonly problems: readonly MappingDocumentProblem[],
    /** Every problem of the document, including those not listed. */
    readonly total: number = problems.length,
  ) {
    const lines = problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`);
    if (total > problems.length) lines.push(`${file}: … ${total - problems.length} more mistakes not listed`);
    super(lines.join("\n"));
  }
}

/**
 * The mapping in `text` (from `file`, for messages); throws a MappingError saying what is wrong
 * where. The work is proportional to the text, however many its problems: each is placed by a
 * binary search in the line starts and a lookup in its object's keys, indexed once.
 */
export function readMapping(text: string, file: string, options: ReadMappingOptions = {}): MappingDocument {
  const limit = options.maxProblems ?? MAX_MAPPING_PROBLEMS;
  if (!(limit >= 0)) throw new RangeError(`maxProblems must be a number ≥ 0, got ${String(limit)}`);
  const at = lineColumns(text);
  const tooDeep = nestingPast(text, MAX_NESTING);
  if (tooDeep !== null) {
    const message = `arrays and objects nested more than ${MAX_NESTING} deep: a mapping nests them 4 deep at most`;
    throw new MappingError(file, [{ ...at(tooDeep), pointer: "", message }]);
  }
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false });
  if (errors.length > 0 || tree === undefined) {
    const first = errors[0];
    const where = at(first?.offset ?? 0);
    const what = first ? printParseErrorCode(first.error) : "Empty";
    throw new MappingError(file, [
      { ...where, pointer: "", message: `the mapping is not JSON: ${syntax(what)}` },
    ]);
  }
  const document: unknown = JSON.parse(text);
  const problems = mappingProblems(document);
  if (problems.length === 0) return document as MappingDocument;
  const nodeAt = nodeFinder(tree);
  const placed = problems.map((problem) => {
    const node = nodeAt(problem.pointer);
    // a property is shown at its key
    const offset = node.parent?.type === "property" ? node.parent.offset : node.offset;
    return { ...at(offset), pointer: problem.pointer, message: problem.message };
  });
  // in the order of the document
  placed.sort((a, b) => a.line - b.line || a.column - b.column);
  throw new MappingError(file, placed.slice(0, limit), placed.length);
}

/**
 * The node at a pointer in `tree`, or the nearest one above it there is (a field that is
 * missing: its object). An object's keys are indexed the first time one is looked up; a key
 * given twice is found at its first place, and a segment of digits only in an array, as
 * jsonc-parser's findNodeAtLocation does.
 */
function nodeFinder(tree: Node): (pointer: string) => Node {
  const indexed = new Map<Node, Map<string, Node>>();
  const child = (node: Node, segment: string): Node | undefined => {
    if (/^\d+$/.test(segment)) return node.type === "array" ? node.children?.[Number(segment)] : undefined;
    if (node.type !== "object") return undefined;
    let byKey = indexed.get(node);
    if (byKey === undefined) {
      byKey = new Map();
      for (const property of node.children ?? []) {
        const [key, value] = property.children ?? [];
        if (key !== undefined && value !== undefined && !byKey.has(key.value)) byKey.set(key.value, value);
      }
      indexed.set(node, byKey);
    }
    return byKey.get(segment);
  };
  return (pointer) => {
    let node = tree;
    for (const segment of pointerSegments(pointer)) {
      const next = child(node, segment);
      if (next === undefined) break;
      node = next;
    }
    return node;
  };
}

/** jsonc-parser's name of a syntax error in words: ValueExpected → value expected. */
function syntax(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
