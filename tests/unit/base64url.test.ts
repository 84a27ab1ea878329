// The MACs in unsubscribe links and analytics session cookies travel as unpadded base64url
// (worker/lib/crypto.ts). Their last character carries 4 bits of the MAC and 2 unused bits; a decoder
// that ignored those 2 bits would accept four spellings of one MAC, so changing the last character
// could leave a token valid. Only the one spelling toBase64Url writes is accepted.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromBase64Url, toBase64Url } from "../../worker/lib/crypto";

const mac = fc.uint8Array({ minLength: 32, maxLength: 32 });
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

describe("fromBase64Url", () => {
  it("reads back every 32-byte MAC toBase64Url wrote", () => {
    fc.assert(
      fc.property(mac, (bytes) => {
        expect(fromBase64Url(toBase64Url(bytes.buffer as ArrayBuffer))).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it("refuses a text with any one character changed, or reads different bytes from it", () => {
    fc.assert(
      fc.property(mac, fc.nat(42), fc.constantFrom(...ALPHABET), (bytes, at, char) => {
        const text = toBase64Url(bytes.buffer as ArrayBuffer);
        fc.pre(text[at] !== char);
        const changed = fromBase64Url(text.slice(0, at) + char + text.slice(at + 1));
        if (changed) expect(changed).not.toEqual(new Uint8Array(bytes));
      }),
      { numRuns: 2000 },
    );
  });

  it("refuses the other spellings of the last character", () => {
    const text = toBase64Url(new Uint8Array(32).buffer); // 42 × "A", then "A"
    expect(fromBase64Url(text)).toEqual(new Uint8Array(32));
    for (const last of "BCD") expect(fromBase64Url(text.slice(0, -1) + last)).toBeNull();
  });

  it("refuses wrong lengths and characters outside base64url", () => {
    const text = toBase64Url(new Uint8Array(32).fill(7).buffer);
    for (const bad of ["", text.slice(1), `${text}A`, `${text.slice(0, -1)}=`, `${text.slice(0, -1)}+`, `${text.slice(0, -1)}/`]) {
      expect(fromBase64Url(bad), JSON.stringify(bad)).toBeNull();
    }
  });
});
