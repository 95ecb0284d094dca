// Exit codes of every command.

/**
 * 0 valid / done, 1 invalid input (or a failed remote operation), 2 usage, 3 unreadable input,
 * 4 internal error, 5 a push the delete guard stopped.
 */
export const EXIT = { ok: 0, invalid: 1, usage: 2, unreadable: 3, internal: 4, guard: 5 } as const;
