import { Hono } from "hono";
import { passwordConfirmationSchema, profileUpdateSchema } from "../../../domain/schemas/account";
import type { AppEnv } from "../../env";
import { clearDeviceCookie, clearSessionCookies } from "../../lib/cookies";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { actorOf, requireUser } from "../../middleware/session";
import { noStore } from "../../middleware/cache";
import { deleteAccount, exportUserData, getProfile, reauthenticate, updateProfile } from "./account";
import { mirrorRoomsOf } from "../chat/live";
import { getOwnListing } from "../listings/edits";
import { ownListings, toListingCard } from "../listings/listings";
import { ownModerationStatus } from "../moderation/own-status";
import { attributeValues } from "../../../domain/listing-fields";

/** The signed-in user's own profile and data. */
export const meRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", noStore, async (c) => {
    return c.json(await getProfile(c.var.db, actorOf(c).id));
  })
  .patch("/profile", validate("json", profileUpdateSchema), async (c) => {
    return c.json(await updateProfile(c.var.db, actorOf(c).id, c.req.valid("json")));
  })
  // Warnings and a suspension from moderators, shown on the profile (docs/decisions/051-suspensions.md).
  .get("/moderation", noStore, async (c) => {
    return c.json(await ownModerationStatus(c.var.db, actorOf(c).id));
  })
  .get("/listings", noStore, async (c) => {
    return c.json(await ownListings(c.var.db, actorOf(c)));
  })
  .get("/listings/:id", async (c) => {
    const row = await getOwnListing(c.var.db, c.req.param("id"), actorOf(c));
    // The edit form gets the seller's own setting, not the shown one (decision 089).
    return c.json({
      ...toListingCard(row),
      payment_enabled: row.paymentEnabled,
      pricing_mode: row.pricingMode,
      description: row.description,
      parcel_size: row.parcelSize,
      ...attributeValues(row),
    });
  })
  // POST, not GET: the password travels in the body, never in a URL.
  .post("/export", validate("json", passwordConfirmationSchema), async (c) => {
    await reauthenticate(c.var.db, actorOf(c), clientAddressKey(c), c.req.valid("json").password);
    // The rooms hold the newest messages first (decision 107): D1 gets them before it is read.
    await mirrorRoomsOf(c.env, actorOf(c).id);
    const data = await exportUserData(c.var.db, actorOf(c).id);
    // On the file only (not the noStore middleware): a refused password never carried it.
    c.header("Cache-Control", "no-store");
    c.header("Content-Disposition", `attachment; filename="lekebytte-mine-data-${new Date().toISOString().slice(0, 10)}.json"`);
    return c.body(JSON.stringify(data, null, 2), 200, { "Content-Type": "application/json; charset=utf-8" });
  })
  .delete("/", validate("json", passwordConfirmationSchema), async (c) => {
    await reauthenticate(c.var.db, actorOf(c), clientAddressKey(c), c.req.valid("json").password);
    await deleteAccount(c.env, actorOf(c).id);
    clearSessionCookies(c);
    clearDeviceCookie(c);
    return c.body(null, 204);
  });
