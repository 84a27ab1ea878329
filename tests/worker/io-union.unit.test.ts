// The union of the intervals during which a request awaited I/O (worker/lib/worker-time.ts, decision
// 111): our Worker's own time is its wall time minus this union, so I/O sent in parallel
// (Promise.all) must count once, not once per call.
import { describe, expect, it } from "vitest";
import { IoUnion } from "../../worker/lib/worker-time";

/** A clock the test moves by hand. */
function clock() {
  let t = 0;
  return { now: () => t, to: (at: number) => void (t = at) };
}

describe("IoUnion", () => {
  it("adds sequential intervals", () => {
    const c = clock();
    const u = new IoUnion(c.now);
    c.to(1);
    u.begin();
    c.to(4);
    u.end();
    c.to(10);
    u.begin();
    c.to(12);
    u.end();
    c.to(20);
    expect(u.total()).toBe(3 + 2);
  });

  it("counts overlapping intervals once, from the first start to the last end", () => {
    const c = clock();
    const u = new IoUnion(c.now);
    c.to(2);
    u.begin(); // a: 2–7
    c.to(5);
    u.begin(); // b: 5–9
    c.to(7);
    u.end();
    c.to(9);
    u.end();
    expect(u.total()).toBe(7);
  });

  it("counts a nested interval inside an outer one once", () => {
    const c = clock();
    const u = new IoUnion(c.now);
    u.begin(); // outer: 0–10
    c.to(3);
    u.begin(); // inner: 3–4
    c.to(4);
    u.end();
    c.to(10);
    u.end();
    c.to(15);
    expect(u.total()).toBe(10);
  });

  it("counts an interval still open up to now", () => {
    const c = clock();
    const u = new IoUnion(c.now);
    c.to(1);
    u.begin();
    c.to(6);
    expect(u.total()).toBe(5);
    c.to(8);
    expect(u.total()).toBe(7);
  });

  it("tracks a call's promise from before the call to its settling, rejected ones included", async () => {
    const c = clock();
    const u = new IoUnion(c.now);
    let settle!: (v: string) => void;
    const answer = u.track(() => new Promise<string>((resolve) => (settle = resolve)));
    c.to(3);
    settle("svar");
    expect(await answer).toBe("svar");
    c.to(5);
    await expect(
      u.track(async () => {
        c.to(6);
        throw new Error("nei");
      }),
    ).rejects.toThrow("nei");
    c.to(9);
    expect(u.total()).toBe(3 + 1);
    expect(() =>
      u.track(() => {
        throw new Error("synchronous");
      }),
    ).toThrow("synchronous");
    c.to(11);
    expect(u.total()).toBe(4); // a call that throws before it sends anything closes its interval at once
  });
});
