// What a thread posts is copied by the structured clone, which copies a view's whole buffer: the
// bytes posted are cut out of a larger buffer first, and posting never detaches what was posted.

import { MessageChannel, receiveMessageOnPort } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { posted } from "../../src/pass/_posted.js";

/** What the other side of a port receives of `bytes`, posted as the passes post them. */
function received(bytes: Uint8Array): Uint8Array {
  const { port1, port2 } = new MessageChannel();
  try {
    port1.postMessage({ bytes: posted(bytes) });
    const got = receiveMessageOnPort(port2);
    if (!got) throw new Error("nothing was received");
    return (got.message as { bytes: Uint8Array }).bytes;
  } finally {
    port1.close();
  }
}

describe("posting bytes to another thread", () => {
  it("sends only the bytes of a small Buffer from Node's pool, not the pool", () => {
    const small = Buffer.from("id,email\n1,ada@example.com\n");
    expect(small.buffer.byteLength).toBeGreaterThan(small.length); // a view of the pool
    const sent = received(small);
    expect(Buffer.from(sent).toString()).toBe(small.toString());
    expect(sent.buffer.byteLength).toBe(small.length);
  });

  it("sends only the bytes read of a read's larger buffer", () => {
    const read = Buffer.allocUnsafe(64 * 1024)
      .fill(7)
      .subarray(0, 100);
    const sent = received(read);
    expect(sent.length).toBe(100);
    expect(sent.buffer.byteLength).toBe(100);
  });

  it("leaves what it posted readable: nothing is moved, so nothing is detached", () => {
    const whole = new Uint8Array([1, 2, 3]);
    expect(received(whole)).toEqual(new Uint8Array([1, 2, 3]));
    expect(whole.byteLength).toBe(3);
    expect(whole[2]).toBe(3);
  });
});
