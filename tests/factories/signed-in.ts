// A signed-in test client without the scrypt cost of a real sign-in: a session row and an access
// cookie minted the way the auth service mints them.
import { env } from "cloudflare:workers";
import { randomToken, sha256Hex, isoIn } from "../../worker/lib/crypto";
import { signAccessToken } from "../../worker/lib/jwt";
import { REFRESH_ABSOLUTE_TTL_SECONDS } from "../../worker/features/auth/auth";
import { Client } from "../worker/support/http";

/** `accessTtlSeconds`: an access token that expires sooner than the real 15 minutes (socket expiry tests). */
export async function signedInClient(userId: string, { accessTtlSeconds }: { accessTtlSeconds?: number } = {}): Promise<Client> {
  const family = crypto.randomUUID();
  await env.DB.prepare(
    "INSERT INTO sessions (id, user_id, family_id, token_hash, expires_at, family_expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
  )
    .bind(crypto.randomUUID(), userId, family, await sha256Hex(randomToken(32)), isoIn(3600), isoIn(REFRESH_ABSOLUTE_TTL_SECONDS))
    .run();
  const { token } = await signAccessToken(env, userId, family, accessTtlSeconds);
  const client = new Client();
  client.cookies.set("lb_access", token);
  return client;
}
