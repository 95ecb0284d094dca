// A mapping document read from its text: JSON syntax and the schema's problems each at its line
// and column in the document (jsonc-parser keeps where each value is).

import { findNodeAtLocation, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
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

/** A mapping document that cannot be used: every problem, at its place. */
export class MappingError extends Error {
  override readonly name = "MappingError";
  constructor(
    readonly file: string,
    readonly problems: readonly MappingDocumentProblem[],
  ) {
    super(problems.map((p) => `${file}:${p.line}:${p.column}: ${p.message}`).join("\n"));
  }
}

/** The mapping in `text` (from `file`, for messages); throws a MappingError saying what is wrong where. */
export function readMapping(text: string, file: string): MappingDocument {
  const at = (offset: number) => {
    const before = text.slice(0, offset);
    const line = before.split("\n").length;
    return { line, column: offset - before.lastIndexOf("\n") };
  };
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
  const placed = problems.map((problem) => {
    const path = pointerSegments(problem.pointer).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    // a property is shown at its key
    let node = findNodeAtLocation(tree, path);
    while (!node && path.length > 0) {
      path.pop(); // a field that is missing: its object
      node = findNodeAtLocation(tree, path);
    }
    const offset = node?.parent?.type === "property" ? node.parent.offset : (node?.offset ?? 0);
    return { ...at(offset), pointer: problem.pointer, message: problem.message };
  });
  // in the order of the document
  throw new MappingError(
    file,
    placed.sort((a, b) => a.line - b.line || a.column - b.column),
  );
}

/** jsonc-parser's name of a syntax error in words: ValueExpected → value expected. */
function syntax(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}
