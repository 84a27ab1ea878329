// The local-mode D1 counter behind `npm run bench:load`'s statement figures (worker/db/usage.ts,
// decision 111): it counts round trips, statements and the rows D1 reports, answers exactly what D1
// answers, and is never put in front of D1 outside local mode.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import { countD1InLocalMode, countD1Into, d1Usage, emptyD1Usage, type D1Usage } from "../../worker/db/usage";
import type { Bindings } from "../../worker/env";

const local = env as Bindings;

/** What `counter` (the isolate's by default) counted since `before`. */
function since(before: D1Usage, counter: () => D1Usage = d1Usage): D1Usage {
  const now = counter();
  return {
    roundTrips: now.roundTrips - before.roundTrips,
    statements: now.statements - before.statements,
    writeStatements: now.writeStatements - before.writeStatements,
    statementsWithoutMeta: now.statementsWithoutMeta - before.statementsWithoutMeta,
    rowsRead: now.rowsRead - before.rowsRead,
    rowsWritten: now.rowsWritten - before.rowsWritten,
  };
}

describe("countD1InLocalMode", () => {
  it("leaves the bindings untouched outside local mode", () => {
    const deployed = { ...local, APP_ENV: "production" } as Bindings;
    expect(countD1InLocalMode(deployed)).toBe(deployed);
    expect(countD1InLocalMode(deployed).DB).toBe(local.DB);
  });

  it("wraps each env once", () => {
    expect(countD1InLocalMode(local)).toBe(countD1InLocalMode(local));
    expect(countD1InLocalMode(local).DB).not.toBe(local.DB);
  });

  it("counts a statement per call and a batch as one round trip, and answers as D1 does", async () => {
    // The isolate's counter counts the same way, but also whatever else the process runs meanwhile
    // (another file's queue consumer): the rules are read off a counter of this test's own.
    const own = emptyD1Usage();
    const snapshot = () => ({ ...own });
    const db = countD1Into(own, local).DB;
    const table = `usage_${crypto.randomUUID().replaceAll("-", "")}`;
    await local.DB.prepare(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`).run();

    let before = snapshot();
    const inserted = await db.batch([
      db.prepare(`INSERT INTO ${table} (id, name) VALUES (?1, ?2)`).bind(1, "bamse"),
      db.prepare(`INSERT INTO ${table} (id, name) VALUES (?1, ?2)`).bind(2, "klosser"),
      db.prepare(`INSERT INTO ${table} (id, name) VALUES (?1, ?2)`).bind(3, "dukke"),
    ]);
    expect(inserted).toHaveLength(3);
    expect(since(before, snapshot)).toMatchObject({
      roundTrips: 1,
      statements: 3,
      writeStatements: 3,
      statementsWithoutMeta: 0,
      rowsWritten: 3,
    });

    before = snapshot();
    const select = `SELECT id, name FROM ${table} WHERE id >= ?1 ORDER BY id`;
    expect(await db.prepare(select).bind(2).first()).toEqual(await local.DB.prepare(select).bind(2).first());
    expect(await db.prepare(select).bind(2).first("name")).toBe("klosser");
    expect(await db.prepare(select).bind(9).first()).toBeNull();
    expect((await db.prepare(select).bind(1).all()).results).toEqual((await local.DB.prepare(select).bind(1).all()).results);
    expect(await db.prepare(select).bind(3).raw()).toEqual([[3, "dukke"]]);
    expect(await db.prepare(select).bind(3).raw({ columnNames: true })).toEqual([
      ["id", "name"],
      [3, "dukke"],
    ]);
    const usage = since(before, snapshot);
    expect(usage).toMatchObject({ roundTrips: 6, statements: 6, writeStatements: 0, statementsWithoutMeta: 2, rowsWritten: 0 });
    expect(usage.rowsRead).toBeGreaterThanOrEqual(2 + 3);

    before = snapshot();
    const session = db.withSession("first-unconstrained");
    expect(await session.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first("n")).toBe(3);
    await session.batch([session.prepare(`DELETE FROM ${table} WHERE id = ?1`).bind(1)]);
    expect(since(before, snapshot)).toMatchObject({ roundTrips: 2, statements: 2, writeStatements: 1, rowsWritten: 1 });
    before = snapshot();
    await db
      .prepare(`WITH gone AS (SELECT id FROM ${table} WHERE id = ?1) DELETE FROM ${table} WHERE id IN (SELECT id FROM gone)`)
      .bind(2)
      .run();
    await db.prepare(`WITH kept AS (SELECT id FROM ${table}) SELECT COUNT(*) AS n FROM kept`).first();
    expect(since(before, snapshot)).toMatchObject({ statements: 2, writeStatements: 1 });
    await local.DB.prepare(`DROP TABLE ${table}`).run();
  });

  it("is what GET /api/dev/d1-usage answers, and a request through the Worker is counted", async () => {
    const read = async () => (await app.fetch(new Request("http://localhost/api/dev/d1-usage"), countD1InLocalMode(local))).json<D1Usage>();
    const first = await read();
    const second = await read();
    expect(second).toEqual(first); // reading the counter asks nothing of D1
    const res = await app.fetch(new Request(`http://localhost/api/search?q=${crypto.randomUUID()}`), countD1InLocalMode(local));
    expect(res.status).toBe(200);
    const after = await read();
    expect(after.statements).toBeGreaterThan(second.statements);
    expect(after.roundTrips).toBeGreaterThan(second.roundTrips);
  });
});
