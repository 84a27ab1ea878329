// Per-address rate limits key an IPv6 address on its /64 (docs/decisions/010-rate-limits.md, 082):
// one subscriber gets a whole /64, so a limit on the full address was no limit at all (a new
// address per sign-up). IPv4 addresses keep their own allowance.
import { describe, expect, it } from "vitest";
import { addressLimitKey } from "../../../domain/address";
import { RATE_RULES } from "../../../domain/rate-limits";
import { Client } from "../support/http";
import { countAttempts } from "../support/rate-limits";

const PASSWORD = "Sikkert-passord-123";

function signUpFrom(ip: string) {
  const email = `adresse-${crypto.randomUUID().slice(0, 12)}@test.no`;
  return new Client().post(
    "/api/auth/signup",
    { display_name: "Nina", email, password: PASSWORD, postal_code: "0150" },
    { headers: { "CF-Connecting-IP": ip } },
  );
}

describe("per-address limits and IPv6", () => {
  it("sign-ups from two addresses in one /64 share the per-address limit; another /64 has its own", async () => {
    const first = "2001:db8:51:7::1";
    const sameNetwork = "2001:db8:51:7:dead:beef:0:2";
    // All but one of the allowance used, as earlier sign-ups from `first` would have left it.
    await countAttempts(RATE_RULES.signupAddress, addressLimitKey(first), RATE_RULES.signupAddress.limit - 1);
    expect((await signUpFrom(first)).status).toBe(201);
    const refused = await signUpFrom(sameNetwork);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await signUpFrom("2001:db8:51:8::1")).status).toBe(201);
  });

  it("every address of the /64, however written, is refused once it is used up", async () => {
    await countAttempts(RATE_RULES.signupAddress, addressLimitKey("2001:db8:52:1::1"));
    for (const ip of ["2001:db8:52:1::9", "2001:0DB8:0052:0001:0000:0000:0000:0009", "2001:db8:52:1:ffff:ffff:ffff:ffff"]) {
      expect((await signUpFrom(ip)).status, ip).toBe(429);
    }
  });

  it("IPv4 neighbours keep their own allowance (one address may be a whole household behind NAT)", async () => {
    await countAttempts(RATE_RULES.signupAddress, "192.0.2.200");
    expect((await signUpFrom("192.0.2.200")).status).toBe(429);
    expect((await signUpFrom("192.0.2.201")).status).toBe(201);
    // The same address written as IPv4-mapped IPv6 is the same address.
    expect((await signUpFrom("::ffff:192.0.2.200")).status).toBe(429);
  });

  it("the contact form's per-address limit is shared by the /64 too", async () => {
    await countAttempts(RATE_RULES.contactAddress, addressLimitKey("2001:db8:53:1::1"));
    const res = await new Client().post(
      "/api/contact",
      { name: "Nina", email: "nina@test.no", subject: "Hei", message: "Et spørsmål om en annonse." },
      { headers: { "CF-Connecting-IP": "2001:db8:53:1::77" } },
    );
    expect(res.status).toBe(429);
  });
});
