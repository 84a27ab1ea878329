// The newsletter feature: signing up from the home page's newsletter block.
import type { InferRequestType } from "hono/client";
import { api, call } from "./client";

export type NewsletterBody = InferRequestType<typeof api.newsletter.$post>["json"];

export function subscribeNewsletter(body: NewsletterBody) {
  return call(api.newsletter.$post({ json: body }));
}
