// "Innlogget på" (docs/product.md "Profile"): one line per live session family (one sign-in, one
// device), with the browser and system read from its user agent, the place the platform guessed for
// its latest request, when it was signed in and last seen (its latest refresh, at most 15 minutes
// behind while a tab is open). "Logg ut" ends one, "Logg ut alle andre" every one but this.
import Bowser from "bowser";
import { CREDENTIAL_MESSAGES } from "../../../domain/credentials";
import type { Actor, Bindings } from "../../env";
import type { Db } from "../../db/client";
import { AppError } from "../../lib/errors";
import { nowIso } from "../../lib/crypto";
import { isUuid } from "../../lib/uuid";
import { endSessionSockets } from "../chat/live";
import { revokeAllSessions } from "./auth";

/** At most this many devices are listed (newest first); an account rarely has more than a handful. */
const LISTED = 50;

export interface Device {
  id: string;
  browser: string | null;
  system: string | null;
  kind: "mobile" | "tablet" | "desktop" | null;
  city: string | null;
  country: string | null;
  signed_in_at: string;
  last_seen_at: string;
  current: boolean;
}

/** Browser and system as people name them ("Chrome", "Android 14"), from a user agent. */
export function describeUserAgent(userAgent: string | null): Pick<Device, "browser" | "system" | "kind"> {
  if (!userAgent) return { browser: null, system: null, kind: null };
  const parsed = Bowser.parse(userAgent);
  const os = parsed.os.name ? [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ") : null;
  const type = parsed.platform.type;
  return {
    browser: parsed.browser.name ?? null,
    system: os,
    kind: type === "mobile" || type === "tablet" || type === "desktop" ? type : null,
  };
}

export async function listDevices(db: Db, actor: Actor): Promise<Device[]> {
  const now = nowIso();
  const rows = await db
    .prepare(
      `SELECT s.family_id, s.user_agent, s.city, s.country, s.created_at AS last_seen_at,
         (SELECT MIN(f.created_at) FROM sessions f WHERE f.family_id = s.family_id) AS signed_in_at
       FROM sessions s
       WHERE s.user_id = ?1 AND s.rotated_at IS NULL AND s.revoked_at IS NULL AND s.expires_at > ?2
         AND (s.family_expires_at IS NULL OR s.family_expires_at > ?2)
         AND NOT EXISTS (SELECT 1 FROM sessions r WHERE r.family_id = s.family_id AND r.revoked_at IS NOT NULL)
       ORDER BY s.family_id = ?3 DESC, s.created_at DESC LIMIT ?4`,
    )
    .bind(actor.id, now, actor.sessionFamily, LISTED)
    .all<{
      family_id: string;
      user_agent: string | null;
      city: string | null;
      country: string | null;
      last_seen_at: string;
      signed_in_at: string;
    }>();
  return rows.results.map((row) => ({
    id: row.family_id,
    ...describeUserAgent(row.user_agent),
    city: row.city,
    country: row.country,
    signed_in_at: row.signed_in_at,
    last_seen_at: row.last_seen_at,
    current: row.family_id === actor.sessionFamily,
  }));
}

/**
 * "Logg ut" of one device: its family is revoked and its sockets close at once. Someone else's
 * session, an ended one and a malformed id are all "not found". Returns whether it was this one.
 */
export async function endDevice(env: Bindings, db: Db, actor: Actor, familyId: string): Promise<{ current: boolean }> {
  if (!isUuid(familyId)) throw new AppError("NOT_FOUND", CREDENTIAL_MESSAGES.sessionNotFound);
  const revoked = await db
    .prepare(
      `UPDATE sessions SET revoked_at = ?3 WHERE family_id = ?1 AND user_id = ?2 AND revoked_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM sessions r WHERE r.family_id = ?1 AND r.revoked_at IS NOT NULL)
       RETURNING id`,
    )
    .bind(familyId, actor.id, nowIso())
    .all();
  if (!revoked.results.length) throw new AppError("NOT_FOUND", CREDENTIAL_MESSAGES.sessionNotFound);
  await endSessionSockets(env, actor.id, familyId, "signed out");
  return { current: familyId === actor.sessionFamily };
}

/** "Logg ut alle andre": every session but this one ends, with its sockets. */
export async function endOtherDevices(env: Bindings, actor: Actor): Promise<void> {
  await revokeAllSessions(env, actor.id, "signed out", actor.sessionFamily);
}
