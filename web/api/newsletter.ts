// The newsletter feature: signing up from the home page, the footer and the static pages.
import type { InferRequestType } from "hono/client";
import { api, call } from "./client";

export type NewsletterBody = InferRequestType<typeof api.newsletter.$post>["json"];

export function subscribeNewsletter(body: NewsletterBody) {
  return call(api.newsletter.$post({ json: body }));
}
