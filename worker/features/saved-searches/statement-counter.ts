/**
 * A D1 binding that counts the statements prepared through it (each statement the services prepare
 * runs once): the saved-search benchmark and tests report "queries issued" with it.
 */
export function countingD1(d1: D1Database): { d1: D1Database; statements: () => number } {
  let statements = 0;
  const proxy = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          statements++;
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { d1: proxy, statements: () => statements };
}
