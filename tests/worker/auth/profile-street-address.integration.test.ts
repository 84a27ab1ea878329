// The profile's "Gateadresse" (the sender's address on a parcel): stored and read back by its owner,
// cleaned and limited like every one-line text, kept when a form leaves it out, in the data export,
// gone with the account, and in no answer anyone else can get.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createListing } from "../../factories";
import { PASSWORD, signedIn } from "../support/auth";
import { Client, errorOf } from "../support/http";

const ADDRESS = "Storgata 12B";

describe("the profile's street address", () => {
  it("is saved cleaned and trimmed, read back by its owner, and removed when emptied", async () => {
    const { client } = await signedIn({ displayName: "Kari", postalCode: "0150" });
    expect(await (await client.get("/api/me")).json()).toMatchObject({ street_address: null });

    const saved = await client.patch("/api/me/profile", {
      display_name: "Kari",
      postal_code: "0150",
      street_address: "  Storgata\t12B \n",
    });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toMatchObject({ street_address: "Storgata 12B", display_name: "Kari", postal_code: "0150" });
    expect(await (await client.get("/api/me")).json()).toMatchObject({ street_address: ADDRESS });

    for (const emptied of ["   ", "", null]) {
      await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: ADDRESS });
      const res = await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: emptied });
      expect(await res.json(), JSON.stringify(emptied)).toMatchObject({ street_address: null });
    }
  });

  it("a form without the field keeps the stored address", async () => {
    const { client } = await signedIn();
    await client.patch("/api/me/profile", { display_name: "Ola", postal_code: "5003", street_address: ADDRESS });
    const res = await client.patch("/api/me/profile", { display_name: "Ola Nordmann", postal_code: "5003" });
    expect(await res.json()).toMatchObject({ display_name: "Ola Nordmann", street_address: ADDRESS });
  });

  it.each([
    ["101 characters", "x".repeat(101), "Gateadressen kan være maks 100 tegn"],
    ["a number", 12, "Gateadressen må være tekst"],
  ])("refuses %s: 400 at the field, nothing stored", async (_name, value, message) => {
    const { client } = await signedIn();
    await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: ADDRESS });
    const res = await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: value });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toMatchObject({ code: "VALIDATION", message, fields: { street_address: message } });
    expect(await (await client.get("/api/me")).json()).toMatchObject({ street_address: ADDRESS });
    // Exactly 100 is fine.
    const full = await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: "y".repeat(100) });
    expect(full.status).toBe(200);
  });

  it("is in the owner's data export", async () => {
    const { client } = await signedIn();
    await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: ADDRESS });
    const data = (await (await client.post("/api/me/export", { password: PASSWORD })).json()) as { profile: { street_address: string } };
    expect(data.profile.street_address).toBe(ADDRESS);
  });

  it("is in no public answer: the public profile, the listing, search and home, for visitors and other users", async () => {
    const { client, user } = await signedIn({ displayName: "Selger" });
    await client.patch("/api/me/profile", { display_name: "Selger", postal_code: "0150", street_address: "Hemmeligveien 7" });
    const listing = await createListing({ userId: user.id, title: "Dukkehus i tre" });
    const other = (await signedIn()).client;
    for (const reader of [new Client(), other]) {
      for (const path of [
        `/api/users/${user.id}`,
        `/api/listings/${listing.id}`,
        `/api/search?q=${encodeURIComponent("Dukkehus")}`,
        "/api/home",
      ]) {
        const res = await reader.get(path);
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).not.toContain("Hemmeligveien");
      }
    }
  });

  it("is removed with the account", async () => {
    const { client, user } = await signedIn();
    await client.patch("/api/me/profile", { display_name: "Kari", postal_code: "0150", street_address: ADDRESS });
    expect((await client.request("/api/me", { method: "DELETE", json: { password: PASSWORD } })).status).toBe(204);
    expect(await env.DB.prepare("SELECT street_address FROM profiles WHERE user_id = ?1").bind(user.id).first()).toEqual({
      street_address: null,
    });
  });
});
