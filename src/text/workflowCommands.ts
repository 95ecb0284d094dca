// Lines that a CI runner would obey. GitHub's runner takes any line of a step's output that
// begins, after spaces, with `::` (or the older `##[`) for a workflow command: `::add-mask::`,
// `::stop-commands::`, `::error …`. A file's name or a value is its author's to choose, so text
// that carries them is made to show as written and never read as a command.

// spaces as .NET's Trim() takes them, which the runner applies first: JavaScript's and U+0085
const COMMAND_START = /(^|[\r\n])([\s\u0085]*)([:#])(?=:|#\[)/g;

/**
 * `text` with every line that would begin with a workflow command (`::`, `##[`, after spaces)
 * escaped in its first character (`%3A`, `%23`), which the runner shows as it is; every other
 * character is left as it was.
 */
export function neutralizeCommands(text: string): string {
  if (!text.includes("::") && !text.includes("##[")) return text;
  return text.replace(
    COMMAND_START,
    (_, before: string, space: string, c: string) => `${before}${space}${c === ":" ? "%3A" : "%23"}`,
  );
}
