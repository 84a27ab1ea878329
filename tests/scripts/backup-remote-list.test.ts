// The R2 list of a remote backup (scripts/backup/r2.ts, decision 137) through Cloudflare's "List
// Objects" API, against a stand-in for the API: every page followed by its cursor, the token sent,
// the objects' metadata kept, and a clear refusal without credentials. The real API cannot be
// reached from here.
import { afterEach, describe, expect, it, vi } from "vitest";
import { listRemoteBucket } from "../../scripts/backup/r2";

const object = (key: string) => ({
  key,
  size: key.length,
  etag: `etag-${key}`,
  last_modified: "2026-11-29T10:00:00.000Z",
  http_metadata: { contentType: "image/jpeg" },
  custom_metadata: {},
  storage_class: "Standard",
});

describe("listRemoteBucket", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("follows the cursor page by page and keeps each object's key, size, etag and metadata", async () => {
    vi.stubEnv("CLOUDFLARE_API_TOKEN", "token-1");
    vi.stubEnv("CLOUDFLARE_ACCOUNT_ID", "account-1");
    const pages: Record<string, unknown> = {
      "": { success: true, result: [object("a/1.jpg"), object("a/1.jpg/800.webp")], result_info: { cursor: "c1", per_page: 2 } },
      c1: { success: true, result: [object("b/2.jpg")], result_info: { cursor: "c2", per_page: 2 } },
      c2: { success: true, result: [], result_info: { cursor: "", per_page: 2 } },
    };
    const asked: { url: string; auth: string | null }[] = [];
    const fetcher = (async (input: URL | RequestInfo, init?: RequestInit) => {
      const url = new URL(String(input));
      asked.push({ url: url.pathname, auth: new Headers(init?.headers).get("Authorization") });
      return Response.json(pages[url.searchParams.get("cursor") ?? ""]);
    }) as typeof fetch;
    const objects = await listRemoteBucket("lekebytte-images", fetcher);
    expect(objects.map((o) => o.key)).toEqual(["a/1.jpg", "a/1.jpg/800.webp", "b/2.jpg"]);
    expect(objects[0]).toEqual({
      key: "a/1.jpg",
      size: 7,
      etag: "etag-a/1.jpg",
      uploaded: "2026-11-29T10:00:00.000Z",
      httpMetadata: { contentType: "image/jpeg" },
      customMetadata: {},
    });
    expect(asked).toHaveLength(3);
    expect(new Set(asked.map((a) => a.url))).toEqual(new Set(["/client/v4/accounts/account-1/r2/buckets/lekebytte-images/objects"]));
    expect(asked.every((a) => a.auth === "Bearer token-1")).toBe(true);
  });

  it("stops with the API's error, and refuses to start without a token and an account", async () => {
    vi.stubEnv("CLOUDFLARE_API_TOKEN", "token-1");
    vi.stubEnv("CLOUDFLARE_ACCOUNT_ID", "account-1");
    const refused = (async () =>
      Response.json({ success: false, errors: [{ message: "Authentication error" }], result: null }, { status: 403 })) as typeof fetch;
    await expect(listRemoteBucket("lekebytte-images", refused)).rejects.toThrow(/403.*Authentication error/);
    vi.stubEnv("CLOUDFLARE_API_TOKEN", "");
    await expect(listRemoteBucket("lekebytte-images", refused)).rejects.toThrow(/CLOUDFLARE_API_TOKEN/);
  });
});
