// API calls a test makes as one of its users, where only success is expected.
import type { APIRequestContext } from "@playwright/test";
import { expect } from "../fixtures";

/** POST through the API as the request context's user and expect success; the answer's body. */
export async function ok(request: APIRequestContext, path: string, data: unknown = {}): Promise<Record<string, unknown>> {
  const res = await request.post(path, { data });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}
