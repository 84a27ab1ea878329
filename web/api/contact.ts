// The contact feature: the contact form's message to the team.
import type { InferRequestType } from "hono/client";
import { api, call } from "./client";

export type ContactBody = InferRequestType<typeof api.contact.$post>["json"];

export function sendContactMessage(body: ContactBody) {
  return call(api.contact.$post({ json: body }));
}
