// Forcing a race (docs/security.md "How it is tested"): a D1 binding that holds every read matching
// `pattern` until `parties` requests have made it, so each of them acts on the same, soon stale,
// read. Only a conditional write can then keep the outcome right.
import { env } from "cloudflare:workers";
import { app } from "../../../worker/app";
import type { Bindings } from "../../../worker/env";
import { type Client, ORIGIN } from "./http";

export interface StaleReads {
  /** The Worker's bindings with the barrier in front of D1. */
  env: Bindings;
  /** How many reads have passed the barrier so far. */
  readonly arrived: number;
}

export function staleReads(pattern: RegExp, parties = 2): StaleReads {
  let arrived = 0;
  let release!: () => void;
  const allRead = new Promise<void>((resolve) => (release = resolve));
  const hold = async <T>(result: Promise<T>): Promise<T> => {
    const value = await result;
    if (arrived < parties) {
      arrived += 1;
      if (arrived === parties) release();
      await allRead;
    }
    return value;
  };
  return {
    env: holdingReads(pattern, hold),
    get arrived() {
      return arrived;
    },
  };
}

/**
 * The Worker's bindings with every D1 read matching `pattern` passed through `hold` (which may keep
 * the result back) before the caller sees it.
 */
export function holdingReads(pattern: RegExp, hold: <T>(result: Promise<T>) => Promise<T>): Bindings {
  const statement = (stmt: D1PreparedStatement, sql: string): D1PreparedStatement =>
    new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (typeof value !== "function") return value;
        if (prop === "bind") return (...args: unknown[]) => statement(target.bind(...args), sql);
        if (["all", "raw", "first", "run"].includes(String(prop)) && pattern.test(sql)) {
          return (...args: unknown[]) => hold((value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
        }
        return value.bind(target);
      },
    });
  const db = new Proxy(env.DB, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (prop === "prepare") return (sql: string) => statement(target.prepare(sql), sql);
      // The request's reads go through its D1 session (docs/decisions/110-read-replicas.md).
      if (prop === "withSession")
        return (constraint?: string) => {
          const session = target.withSession(constraint);
          return {
            prepare: (sql: string) => statement(session.prepare(sql), sql),
            batch: session.batch.bind(session),
            getBookmark: session.getBookmark.bind(session),
          };
        };
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { ...(env as Bindings), DB: db };
}

/** Bindings whose reads matching `pattern` are answered only once `until` has settled: the reader acts on what it read before. */
export function readsHeldUntil(pattern: RegExp, until: Promise<unknown>): Bindings {
  return holdingReads(pattern, async (result) => {
    const value = await result;
    await until.catch(() => undefined);
    return value;
  });
}

/** The same request as Client.post, but through the Worker with other bindings (a forced race). */
export async function postWith(bindings: Bindings, client: Client, path: string, json: unknown = {}, method = "POST"): Promise<Response> {
  return app.fetch(
    new Request(ORIGIN + path, {
      method,
      headers: { "Content-Type": "application/json", Origin: ORIGIN, Cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: JSON.stringify(json),
    }),
    bindings,
  );
}

/** Which of a race's two moves wins. */
export const WINNERS = ["a", "b"] as const;
export type Winner = (typeof WINNERS)[number];

/**
 * Moves `a` and `b` of one race: the loser starts first and makes the read matching `pattern`, then
 * waits while the winner runs to the end, then acts on what it read (its later reads are fresh).
 */
export async function loserReadsFirst<A, B>(
  pattern: RegExp,
  winner: Winner,
  a: (b: Bindings) => Promise<A>,
  b: (b: Bindings) => Promise<B>,
): Promise<[A, B]> {
  let read!: () => void;
  let finished!: () => void;
  const hasRead = new Promise<void>((resolve) => (read = resolve));
  const winnerDone = new Promise<void>((resolve) => (finished = resolve));
  const stale = holdingReads(pattern, async (result) => {
    const value = await result;
    read();
    await winnerDone;
    return value;
  });
  const loser = winner === "a" ? b(stale) : a(stale);
  await hasRead;
  const first = await (winner === "a" ? a(env as Bindings) : b(env as Bindings)).finally(finished);
  const second = await loser;
  return (winner === "a" ? [first, second] : [second, first]) as [A, B];
}
