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

/** The exit codes of every command that calls the service (push, download, reports), for their --help. */
export const REMOTE_EXIT_CODES = `6 the API key refused (401, 403), 8 the service not reached or not
serving (a network failure, a 5xx or a rate limit, after the retries), 130 interrupted.`;

/** Push's own besides (it alone waits for a running sync), for its --help. */
export const STILL_RUNNING_EXIT_CODE = "7 a sync still running after --wait";
