// startConversation against a forced race (SECURITY "How we test it"): another request creates the
// same (listing, buyer, seller) conversation between our look-up and our insert.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { startConversation } from "../../worker/services/conversations";
import { createListing, createUser } from "../factories";

/** D1 whose first INSERT INTO conversations is preceded by `competitor` (the stale read, forced). */
function withCompetitor(db: D1Database, competitor: () => Promise<unknown>): D1Database {
  let fired = false;
  const passThrough = <T extends object>(target: T, override: (prop: PropertyKey) => unknown) =>
    new Proxy(target, {
      get(t, prop) {
        const replaced = override(prop);
        if (replaced !== undefined) return replaced;
        const value = Reflect.get(t, prop, t);
        return typeof value === "function" ? value.bind(t) : value;
      },
    });
  return passThrough(db, (prop) =>
    prop === "prepare"
      ? (sql: string) => {
          const stmt = db.prepare(sql);
          if (!sql.includes("INSERT INTO conversations")) return stmt;
          return passThrough(stmt, (p) =>
            p === "bind"
              ? (...args: unknown[]) => {
                  const bound = stmt.bind(...args);
                  return passThrough(bound, (q) =>
                    q === "first"
                      ? async () => {
                          if (!fired) {
                            fired = true;
                            await competitor();
                          }
                          return bound.first();
                        }
                      : undefined,
                  );
                }
              : undefined,
          );
        }
      : undefined,
  );
}

it("a start that loses the race returns the winner's conversation", async () => {
  const listing = await createListing();
  const buyer = await createUser();
  const winner = crypto.randomUUID();
  const racing = withCompetitor(env.DB, () =>
    env.DB.prepare("INSERT INTO conversations (id, listing_id, buyer_id, seller_id) VALUES (?1, ?2, ?3, ?4)").bind(winner, listing.id, buyer.id, listing.userId).run(),
  );
  expect(await startConversation(racing, listing.id, buyer.id)).toEqual({ id: winner, created: false });
  const n = await env.DB.prepare("SELECT COUNT(*) AS n FROM conversations WHERE listing_id = ?1").bind(listing.id).first<{ n: number }>();
  expect(n?.n).toBe(1);
});
