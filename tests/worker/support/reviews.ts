// Shared by the review tests (tests/worker/reviews/): a user as the service's actor, a review's body,
// how many reviews a deal has, a user's public profile and a party's review state of a deal.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Actor } from "../../../worker/env";
import type { DealReviewState, PublicProfile } from "../../../worker/features/reviews/reviews";
import { signedInClient, type DealFixture, type TestUser } from "../../factories";
import { Client } from "./http";

export const actorOf = (user: TestUser): Actor => ({
  id: user.id,
  email: user.email,
  displayName: user.profile.displayName,
  role: "user",
  suspended: false,
  sessionFamily: "f",
  accessExpiresAt: 0,
});
export const body = (deal: DealFixture, rating = 5, text: string | null = "Hyggelig og rask handel.") => ({
  deal_kind: deal.kind,
  deal_id: deal.id,
  rating,
  text,
});
export const reviewCount = async (deal: DealFixture) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM reviews WHERE deal_kind = ?1 AND deal_id = ?2")
    .bind(deal.kind, deal.id)
    .first<{ n: number }>())!.n;

export async function profileOf(user: TestUser): Promise<PublicProfile> {
  const res = await new Client().get(`/api/users/${user.id}`);
  expect(res.status).toBe(200);
  return res.json();
}

export async function stateOf(user: TestUser, deal: DealFixture): Promise<DealReviewState> {
  const res = await (await signedInClient(user.id)).get(`/api/reviews/deals/${deal.kind}/${deal.id}`);
  expect(res.status).toBe(200);
  return res.json();
}
