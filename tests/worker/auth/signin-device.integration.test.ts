// Sign-in lockout and device cookies (docs/decisions/084-device-cookies.md): strangers
// guessing a password from many addresses must not lock the owner out. A browser that signed in
// before carries a signed device cookie bound to the account and is limited only by its own
// failures; unknown devices (and forged, tampered or borrowed cookies) meet the per-account limit.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RATE_RULES } from "../../../domain/rate-limits";
import { createUser } from "../../factories";
import { Client, errorOf } from "../support/http";
import { countAttempts } from "../support/rate-limits";

const PASSWORD = "hemmelig123";
const WRONG = "gjetning123";
const OWNER_ADDRESS = "192.0.2.10";
/** The device cookie's name over plain http (tests/worker/support/http.ts talks to http://localhost). */
const DEVICE = "lb_device";

function signIn(client: Client, email: string, password: string, address: string): Promise<Response> {
  return client.post("/api/auth/signin", { email, password }, { headers: { "CF-Connecting-IP": address } });
}

/** A fresh browser carrying only the given device cookie. */
function browserWithDevice(value: string): Client {
  const client = new Client();
  client.cookies.set(DEVICE, value);
  return client;
}

/** One wrong password from each of `count` addresses, all at once. */
function attack(email: string, count: number, wave: number): Promise<Response>[] {
  return Array.from({ length: count }, (_, i) => signIn(new Client(), email, WRONG, `198.51.${100 + wave}.${i + 1}`));
}

async function knownDevice(email: string, address = OWNER_ADDRESS): Promise<Client> {
  const client = new Client();
  const res = await signIn(client, email, PASSWORD, address);
  expect(res.status).toBe(200);
  expect(client.cookies.get(DEVICE)).toBeTruthy();
  return client;
}

/** The same cookie with one character in the middle of its signature changed. */
function tampered(value: string): string {
  const i = value.length - 10;
  return value.slice(0, i) + (value[i] === "A" ? "B" : "A") + value.slice(i + 1);
}

describe("sign-in during an attack on the account", () => {
  it("the owner's known device gets in while 50 addresses guess; an unknown, forged, tampered or borrowed device gets 429", {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser({ password: PASSWORD });
    const stranger = await createUser({ password: PASSWORD });
    const device = await knownDevice(owner.email);
    const ownCookie = device.cookies.get(DEVICE)!;
    // A valid device cookie, but of the stranger's own account: it must not count for the owner's.
    const borrowed = (await knownDevice(stranger.email, "203.0.113.99")).cookies.get(DEVICE)!;
    // Earlier in the hour the attack used most of the account's allowance for unknown devices
    // (counted rows, as those requests would have left them, instead of paying scrypt for each):
    // 10 are left, the owner's first sign-in above (then an unknown device) having used one.
    await countAttempts(RATE_RULES.signinAccount, owner.email, RATE_RULES.signinAccount.limit - 11, 60_000);

    // Wave 1: 50 addresses guess at once; the owner signs in from their device in the middle of it.
    const [own1, ...wave1] = await Promise.all([signIn(device, owner.email, PASSWORD, OWNER_ADDRESS), ...attack(owner.email, 50, 1)]);
    expect(own1.status).toBe(200);
    const statuses1 = wave1.map((r) => r.status);
    expect(statuses1.filter((s) => s === 400)).toHaveLength(10);
    expect(statuses1.filter((s) => s === 429)).toHaveLength(40);

    // Wave 2: the account's allowance for unknown devices is used up; the owner's device still gets in.
    const unknown = new Client();
    const [own2, fromUnknown, forged, changed, fromOtherAccount, garbage, ...wave2] = await Promise.all([
      signIn(device, owner.email, PASSWORD, OWNER_ADDRESS),
      signIn(unknown, owner.email, PASSWORD, OWNER_ADDRESS),
      signIn(browserWithDevice(`${owner.id}.${"A".repeat(22)}.${"A".repeat(43)}`), owner.email, PASSWORD, OWNER_ADDRESS),
      signIn(browserWithDevice(tampered(ownCookie)), owner.email, PASSWORD, OWNER_ADDRESS),
      signIn(browserWithDevice(borrowed), owner.email, PASSWORD, OWNER_ADDRESS),
      signIn(browserWithDevice("ikke-en-enhet"), owner.email, PASSWORD, OWNER_ADDRESS),
      ...attack(owner.email, 50, 2),
    ]);
    expect(own2.status).toBe(200);
    expect(wave2.map((r) => r.status)).toEqual(Array(50).fill(429));
    for (const res of [fromUnknown, forged, changed, fromOtherAccount, garbage]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect((await errorOf(res)).message).toBe("For mange forsøk. Vent litt og prøv igjen.");
      expect(res.headers.getSetCookie()).toEqual([]);
    }
    expect(unknown.cookies.size).toBe(0);
  });

  it("a stolen device cookie gets its own few guesses, even all at once; the owner's other device is not affected", {
    timeout: 120_000,
  }, async () => {
    const owner = await createUser({ password: PASSWORD });
    const phone = await knownDevice(owner.email);
    const laptop = await knownDevice(owner.email, "192.0.2.11");
    await countAttempts(RATE_RULES.signinAccount, owner.email, RATE_RULES.signinAccount.limit, 60_000);

    const stolen = laptop.cookies.get(DEVICE)!;
    const guesses = await Promise.all(
      Array.from({ length: RATE_RULES.signinDevice.limit + 5 }, (_, i) =>
        signIn(browserWithDevice(stolen), owner.email, WRONG, `198.51.110.${i + 1}`),
      ),
    );
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(RATE_RULES.signinDevice.limit);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Spent: even the right password is refused with that cookie now (it falls back to the
    // account's limit for unknown devices, which the attack has used up)…
    expect((await signIn(browserWithDevice(stolen), owner.email, PASSWORD, OWNER_ADDRESS)).status).toBe(429);
    // …while the owner's phone signs in as usual.
    expect((await signIn(phone, owner.email, PASSWORD, OWNER_ADDRESS)).status).toBe(200);
  });

  it("each sign-in renews the device cookie with a fresh allowance", { timeout: 60_000 }, async () => {
    const owner = await createUser({ password: PASSWORD });
    const device = await knownDevice(owner.email);
    const first = device.cookies.get(DEVICE)!;
    await countAttempts(RATE_RULES.signinDevice, first.split(".")[1], RATE_RULES.signinDevice.limit - 1, 60_000);
    await countAttempts(RATE_RULES.signinAccount, owner.email, RATE_RULES.signinAccount.limit, 60_000);
    expect((await signIn(device, owner.email, PASSWORD, OWNER_ADDRESS)).status).toBe(200);
    const second = device.cookies.get(DEVICE)!;
    expect(second).not.toBe(first);
    expect((await signIn(device, owner.email, PASSWORD, OWNER_ADDRESS)).status).toBe(200);
  });
});

describe("the device cookie", () => {
  it("is HttpOnly, SameSite=Strict, sent only to the sign-in route; Secure with a __Secure- name over https", async () => {
    const owner = await createUser({ password: PASSWORD });
    const local = await new Client().post("/api/auth/signin", { email: owner.email, password: PASSWORD });
    const cookie = local.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE}=`));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/api\/auth\/signin/);
    expect(cookie).toMatch(/Max-Age=\d{6,}/);

    const secure = await exports.default.fetch(
      new Request("https://localhost/api/auth/signin", {
        method: "POST",
        headers: { Origin: "https://localhost", "Content-Type": "application/json" },
        body: JSON.stringify({ email: owner.email, password: PASSWORD }),
      }),
    );
    expect(secure.status).toBe(200);
    const secureCookie = secure.headers.getSetCookie().find((c) => c.startsWith(`__Secure-${DEVICE}=`));
    expect(secureCookie).toMatch(/;\s*Secure/i);
    expect(secureCookie).toMatch(/HttpOnly/i);
  });

  it("is given by the e-mail confirmation link too, which is a successful sign-in", async () => {
    const email = `enhet-${crypto.randomUUID().slice(0, 8)}@test.no`;
    const client = new Client();
    expect((await client.post("/api/auth/signup", { display_name: "Kari", email, password: PASSWORD, postal_code: "0150" })).status).toBe(
      201,
    );
    const row = await env.DB.prepare("SELECT text_body FROM dev_outbox WHERE to_address = ?1 ORDER BY created_at DESC LIMIT 1")
      .bind(email)
      .first<{ text_body: string }>();
    const code = new URL(row!.text_body.match(/https?:\/\/\S+\/auth\/callback\?code=\S+/)![0]).searchParams.get("code")!;
    expect((await client.post("/api/auth/callback", { code })).status).toBe(200);
    expect(client.cookies.get(DEVICE)).toBeTruthy();
  });
});
