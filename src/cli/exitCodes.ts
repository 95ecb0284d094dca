// Exit codes of every command.

/**
 * 0 valid / done, 1 invalid input (or a request the service refused), 2 usage, 3 unreadable
 * input, 4 internal error, 5 a push the delete guard stopped; and of the commands that call the
 * service: 6 the API key refused (401, 403), 7 a sync still running after --wait, 8 the service
 * not reached or not serving (a network failure, a 5xx or a rate limit, after the retries), 9 a
 * push synced whose state (for the next push's comparison) could not be saved.
 */
export const EXIT = {
  ok: 0,
  invalid: 1,
  usage: 2,
  unreadable: 3,
  internal: 4,
  guard: 5,
  keyRefused: 6,
  stillRunning: 7,
  unavailable: 8,
  notSaved: 9,
} as const;

/** What the exit codes of the commands that call the service mean, for their --help. */
export const REMOTE_EXIT = {
  keyRefused: "6 the API key refused (401, 403)",
  stillRunning: "7 a sync still running after --wait",
  unavailable: "8 the service not reached or not serving (the network, a 5xx or a 429, after the retries)",
  interrupted: "130 interrupted",
} as const;

/** The exit codes of every command that calls the service (push, download, reports), for their --help. */
export const REMOTE_EXIT_CODES = `${REMOTE_EXIT.keyRefused},
${REMOTE_EXIT.unavailable}, ${REMOTE_EXIT.interrupted}.`;
