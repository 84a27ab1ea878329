// Counts D1 round trips: every batch or exec, and every statement run on its own (all, first, run,
// raw), bound or not. A batch of many statements is one round trip, as it is one request to D1 in
// production; `statements` counts each of them, as D1 counts queries.
export function countingD1(d1: D1Database): { d1: D1Database; roundTrips: () => number; statements: () => number } {
  let calls = 0;
  let statements = 0;
  const counting = (stmt: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (["all", "first", "run", "raw"].includes(String(prop)))
          return (...a: unknown[]) => ((calls += 1), (statements += 1), value.apply(target, a));
        // A bound statement is a new statement: it is counted when it runs.
        if (prop === "bind") return (...a: unknown[]) => counting(value.apply(target, a));
        return value.bind(target);
      },
    });
  const counted = new Proxy(d1, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "batch") return (list: D1PreparedStatement[]) => ((calls += 1), (statements += list.length), target.batch(list));
      // Counted as one statement, though exec's SQL may hold several.
      if (prop === "exec") return (sql: string) => ((calls += 1), (statements += 1), target.exec(sql));
      if (prop === "prepare") return (sql: string) => counting(target.prepare(sql));
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: counted, roundTrips: () => calls, statements: () => statements };
}
