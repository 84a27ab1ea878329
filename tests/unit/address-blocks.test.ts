// Client addresses as limits and auto-hide group them (domain/address.ts; docs/decisions/010, 082):
// per-address limits key an IPv4 address on itself and an IPv6 address on its /64; reporters are
// grouped by IPv4 /24 and IPv6 /64. Whatever the CF-Connecting-IP header holds, the result is a
// short, stable string.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressLimitKey, reporterNetwork } from "../../domain/address";

describe("addressLimitKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.8", "203.0.113.8"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:0:0:0:ffff", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["2001:db8:0:0:1::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:198.51.100.1", "2001:db8:1:2::/64"],
    ["local", "other:local"],
  ])("%s → %s", (raw, key) => {
    expect(addressLimitKey(raw)).toBe(key);
  });

  it("two addresses in one /64 share a key; neighbouring /64s and IPv4 addresses do not", () => {
    expect(addressLimitKey("2001:db8:1:2::a")).toBe(addressLimitKey("2001:db8:1:2:ffff:ffff:ffff:ffff"));
    expect(addressLimitKey("2001:db8:1:2::a")).not.toBe(addressLimitKey("2001:db8:1:3::a"));
    expect(addressLimitKey("203.0.113.7")).not.toBe(addressLimitKey("203.0.113.8"));
  });

  it.each([
    "",
    "1.2.3",
    "1.2.3.256",
    "1.2.3.4.5",
    "01.2.3.4",
    "2001:db8::1::2",
    "2001:db8:1:2:3:4:5:6:7",
    "12345::",
    "g::1",
    ":::",
    "1:2:3:4:5:6:7:8::",
    "x".repeat(500),
  ])("something that is no address (%s) is a bounded key of its own, never an address block", (raw) => {
    const key = addressLimitKey(raw);
    expect(key.length).toBeLessThanOrEqual(64);
    expect(key.startsWith("other:")).toBe(true);
    expect(reporterNetwork(raw)).toBe(key);
  });
});

describe("reporterNetwork", () => {
  it.each([
    ["203.0.113.7", "203.0.113.0/24"],
    ["203.0.113.250", "203.0.113.0/24"],
    ["203.0.114.7", "203.0.114.0/24"],
    ["::ffff:203.0.113.9", "203.0.113.0/24"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:9:9:9:9", "2001:db8:1:2::/64"],
    ["local", "other:local"],
  ])("%s → %s", (raw, block) => {
    expect(reporterNetwork(raw)).toBe(block);
  });

  it("any header value gives a short string, the same every time", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        const a = reporterNetwork(raw);
        expect(a).toBe(reporterNetwork(raw));
        expect(a.length).toBeLessThanOrEqual(64);
        expect(addressLimitKey(raw).length).toBeLessThanOrEqual(64);
      }),
    );
  });

  it("every IPv6 address in a /64 maps to that /64", () => {
    const hextet = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(fc.array(hextet, { minLength: 4, maxLength: 4 }), (tail) => {
        expect(reporterNetwork(["2001", "db8", "a", "b", ...tail].join(":"))).toBe("2001:db8:a:b::/64");
      }),
    );
  });
});
