// The count of batches a worker has on their way, seen from both threads (SharedFlight): what
// the worker waits on changes when the calling thread takes a batch or says to stop.

import { describe, expect, it } from "vitest";
import { SharedFlight } from "../../src/pass/_sharedFlight.js";

/** The two sides over one memory, and the count as Atomics.wait sees it. */
function sides() {
  const calling = new SharedFlight();
  const worker = new SharedFlight(calling.buffer);
  const count = new Int32Array(calling.buffer);
  return { calling, worker, count };
}

describe("SharedFlight", () => {
  it("counts the batches sent and not yet taken", () => {
    const { calling, worker, count } = sides();
    worker.sent();
    worker.sent();
    calling.taken();
    expect(Atomics.load(count, 0)).toBe(1);
    expect(worker.stopped).toBe(false);
    worker.waitForRoom(2); // one on its way: room for another, no wait
  });

  it("changes the count a wait is on when told to stop, so that a wait about to begin on the count it saw returns at once", () => {
    const { calling, worker, count } = sides();
    for (let k = 0; k < 4; k++) worker.sent();
    const seen = Atomics.load(count, 0); // the worker saw 4, and is about to wait on it
    calling.stop();
    expect(worker.stopped).toBe(true);
    expect(Atomics.wait(count, 0, seen, 0)).toBe("not-equal");
    worker.waitForRoom(4); // returns: told to stop
  });
});
