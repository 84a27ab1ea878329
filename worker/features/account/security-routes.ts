// "Endre passord", "Endre e-post" and "Innlogget på" on the profile (docs/api.md "Accounts",
// docs/decisions/125-account-recovery.md): the signed-in user's own credentials and sessions.
import { Hono } from "hono";
import { CREDENTIAL_MESSAGES } from "../../../domain/credentials";
import { RATE_RULES } from "../../../domain/rate-limits";
import { changeEmailSchema, changePasswordSchema } from "../../../domain/schemas/credentials";
import type { AppEnv } from "../../env";
import { clearSessionCookies } from "../../lib/cookies";
import { enforceRateLimit } from "../../lib/rate-limit";
import { clientAddressKey } from "../../lib/request";
import { validate } from "../../lib/validate";
import { noStore } from "../../middleware/cache";
import { actorOf, requireUser } from "../../middleware/session";
import { endDevice, endOtherDevices, listDevices } from "../auth/devices";
import { requestEmailChange } from "../auth/email-change";
import { changePassword } from "../auth/password-change";
import { linkOrigin } from "../auth/respond";
import { reauthenticate } from "./account";

export const meSecurityRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .post("/password", validate("json", changePasswordSchema), async (c) => {
    const { current_password, password } = c.req.valid("json");
    const actor = actorOf(c);
    await reauthenticate(c.var.db, actor, clientAddressKey(c), current_password, "current_password");
    await changePassword(c.env, c.var.db, actor, password, linkOrigin(c));
    return c.body(null, 204);
  })
  .post("/email", validate("json", changeEmailSchema), async (c) => {
    const { email, password } = c.req.valid("json");
    const actor = actorOf(c);
    await reauthenticate(c.var.db, actor, clientAddressKey(c), password);
    await enforceRateLimit(c.var.db, RATE_RULES.emailChangeAccount, actor.id);
    await requestEmailChange(c.env, c.var.db, actor, email, linkOrigin(c));
    return c.json({ ok: true, message: CREDENTIAL_MESSAGES.emailChangeSent, pending_email: email }, 202);
  })
  .get("/sessions", noStore, async (c) => {
    return c.json(await listDevices(c.var.db, actorOf(c)));
  })
  .post("/sessions/sign-out-others", async (c) => {
    const actor = actorOf(c);
    await enforceRateLimit(c.var.db, RATE_RULES.sessionEnd, actor.id);
    await endOtherDevices(c.env, actor);
    return c.body(null, 204);
  })
  .delete("/sessions/:id", async (c) => {
    const actor = actorOf(c);
    await enforceRateLimit(c.var.db, RATE_RULES.sessionEnd, actor.id);
    const { current } = await endDevice(c.env, c.var.db, actor, c.req.param("id"));
    // Ending this very session is signing out here.
    if (current) clearSessionCookies(c);
    return c.body(null, 204);
  });
