// Password hashing: scrypt from node:crypto (workerd's Node compatibility), N=2^15, r=8, p=3
// (32 MiB, OWASP's listed equivalent; about 260 ms on this machine). WebCrypto PBKDF2 is capped at
// 100,000 iterations on live Workers, so it is not used. See docs/decisions/005-password-hashing.md.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { isLocal, type ModeVars } from "../../env";

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keyLength: number;
}

export const SCRYPT_PARAMS: Readonly<ScryptParams> = { N: 2 ** 15, r: 8, p: 3, keyLength: 32 };

/** A cost for tests only (about 1/100 of production's): their accounts guard nothing. */
export const TEST_SCRYPT_PARAMS: Readonly<ScryptParams> = { N: 2 ** 10, r: 8, p: 1, keyLength: 32 };

/**
 * The cost a new password is hashed at: production's, except in local mode with PASSWORD_HASH_COST
 * "low" (the end-to-end tests' app). A deployed Worker is never in local mode (its origin is no
 * loopback address), so no setting lowers its cost. A stored hash carries its own cost, so every
 * hash verifies whatever this says now.
 */
export function passwordHashParams(env: ModeVars & { PASSWORD_HASH_COST?: string }): Readonly<ScryptParams> {
  return env.PASSWORD_HASH_COST === "low" && isLocal(env) ? TEST_SCRYPT_PARAMS : SCRYPT_PARAMS;
}

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keyLength: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, keyLength, { N, r, p, maxmem: 256 * N * r * 2 }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

/** `scrypt$N$r$p$salt$hash` with base64 salt and hash; the cost is production's unless a caller names one. */
export async function hashPassword(password: string, { N, r, p, keyLength }: ScryptParams = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, r, p, keyLength);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/**
 * The stored value of an account without a password (one made through "Logg inn med Vipps"): no
 * password verifies against it, and it is no scrypt hash, so `hasPassword` tells it apart.
 */
export const NO_PASSWORD = "";

/** Whether the account can sign in with a password at all (not Vipps-only, not deleted). */
export function hasPassword(stored: string): boolean {
  return stored.startsWith("scrypt$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  // An account without a password (or a deleted one) costs the same scrypt time as a wrong guess,
  // so the answer's timing does not tell which accounts have one.
  if (!hasPassword(stored)) return verifyPassword(password, DUMMY_PASSWORD_HASH).then(() => false);
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], "base64");
  const expected = Buffer.from(parts[5], "base64");
  if (!N || !r || !p || expected.length === 0) return false;
  const key = await scryptAsync(password, salt, N, r, p, expected.length);
  return timingSafeEqual(key, expected);
}

/** A fixed hash to verify against when the e-mail is unknown, so both paths cost the same time. */
export const DUMMY_PASSWORD_HASH = "scrypt$32768$8$3$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=";
