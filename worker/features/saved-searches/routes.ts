import { Hono } from "hono";
import { RATE_RULES } from "../../../domain/rate-limits";
import { savedSearchCreateSchema, savedSearchUpdateSchema, unsubscribeSchema } from "../../../domain/schemas/saved-search";
import type { AppEnv } from "../../env";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { enforceRateLimit } from "../../lib/rate-limit";
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  markSavedSearchSeen,
  savedSearchBadge,
  unsubscribeSavedSearch,
  updateSavedSearch,
} from "./saved-searches";

/**
 * /api/saved-searches: the signed-in user's own saved searches (anyone else's answer 404), and the
 * unsubscribe link of alert e-mails, which needs no session (docs/decisions/040–043).
 */
export const savedSearchRoutes = new Hono<AppEnv>()
  .post("/unsubscribe", validate("json", unsubscribeSchema), async (c) => {
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.unsubscribeAddress, clientAddressKey(c));
    return c.json(await unsubscribeSavedSearch(c.env, db, c.req.valid("json").token));
  })
  .get("/", requireUser, async (c) => c.json(await listSavedSearches(c.var.db, actorOf(c).id)))
  .get("/badge", requireUser, async (c) => c.json(await savedSearchBadge(c.var.db, actorOf(c).id)))
  .post("/", requireUser, validate("json", savedSearchCreateSchema), async (c) => {
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.savedSearchWrite, actorOf(c).id);
    return c.json(await createSavedSearch(db, actorOf(c).id, c.req.valid("json")), 201);
  })
  .patch("/:id", requireUser, validate("json", savedSearchUpdateSchema), async (c) => {
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.savedSearchWrite, actorOf(c).id);
    return c.json(await updateSavedSearch(db, actorOf(c).id, c.req.param("id"), c.req.valid("json")));
  })
  .delete("/:id", requireUser, async (c) => {
    const db = c.var.db;
    await enforceRateLimit(db, RATE_RULES.savedSearchWrite, actorOf(c).id);
    await deleteSavedSearch(db, actorOf(c).id, c.req.param("id"));
    return c.body(null, 204);
  })
  .post("/:id/seen", requireUser, async (c) => {
    await markSavedSearchSeen(c.var.db, actorOf(c).id, c.req.param("id"));
    return c.body(null, 204);
  });
