// The API reference is the routes' own: /api/openapi.json (local mode) is made from each route's zod
// schema and guard, and docs/openapi.json and docs/api-reference.md must be exactly that document.
// After a route changes: `npm run api-docs` writes both again.
import { beforeAll, describe, expect, it } from "vitest";
import { renderApiReference, type ApiDocument } from "./support/api-reference";
import { Client } from "./support/http";

type Document = ApiDocument & { openapi: string };

async function served(): Promise<Document> {
  const res = await new Client().get("/api/openapi.json");
  expect(res.status).toBe(200);
  return (await res.json()) as Document;
}

describe("the API reference", () => {
  let doc: Document;
  // The file's first request starts the Worker: slow on a loaded machine.
  beforeAll(async () => {
    doc = await served();
  }, 60_000);

  it("is OpenAPI 3.1 with every route, its guard and its validated input", () => {
    expect(doc.openapi).toBe("3.1.0");
    const listing = doc.paths["/api/listings"].post as Record<string, unknown>;
    expect(listing.security).toEqual([{ session: [] }]);
    const body = (listing.requestBody as { content: Record<string, { schema: { required: string[] } }> }).content["application/json"];
    expect(body.schema.required).toContain("title");
    expect(doc.paths["/api/moderation/reports"].get["x-roles"]).toEqual(["moderator", "admin"]);
    expect(doc.paths["/api/search"].get.security).toBeUndefined();
    expect(Object.keys(doc.paths).some((p) => p.startsWith("/api/dev"))).toBe(false);
  });

  it("docs/openapi.json and docs/api-reference.md are the served document", async () => {
    await expect(`${JSON.stringify(doc, null, 2)}\n`).toMatchFileSnapshot("../../docs/openapi.json");
    await expect(renderApiReference(doc)).toMatchFileSnapshot("../../docs/api-reference.md");
  });
});
