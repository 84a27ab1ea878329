// The completed deals behind the demo reviews (decision 070), as statements for scripts/seed.ts's
// batch: a sale is a completed payment with its released order, a trade the accepted offer (after
// any the owner turned down) with its completed trade; each with its conversation and reviews.
import { randomUUID } from "node:crypto";
import { reviewWindowClosesAt } from "../../domain/reviews";
import { DEMO_DEALS, LISTINGS } from "./data";
import type { Seeding } from "./statements";

export function dealStatements({ db, stmts, iso, uid, senderId, lid }: Seeding): void {
  for (const d of DEMO_DEALS) {
    const listing = LISTINGS.find((l) => l.ref === d.listing)!;
    const owner = listing.owner;
    const completed = iso(d.completed);
    const convId = randomUUID();
    const dealId = randomUUID();
    stmts.push(
      db
        .prepare(
          "INSERT INTO conversations (id, listing_id, buyer_id, seller_id, last_seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        )
        .bind(
          convId,
          lid(d.listing),
          uid(d.other),
          uid(owner),
          d.messages.length,
          iso(Math.max(d.completed + 60, d.messages[0].ago)),
          iso(d.messages[d.messages.length - 1].ago),
        ),
    );
    d.messages.forEach((m, i) => {
      stmts.push(
        db
          .prepare("INSERT INTO messages (id, conversation_id, sender_id, seq, content, read_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
          .bind(randomUUID(), convId, senderId(m.from), i + 1, m.text, m.read ? iso(Math.max(0, m.ago - 3)) : null, iso(m.ago)),
      );
    });
    if (d.kind === "sale") {
      const paymentId = randomUUID();
      const amount = (listing.price ?? 0) * 100;
      stmts.push(
        db
          .prepare(
            `INSERT INTO payments (id, listing_id, seller_id, buyer_id, provider, provider_ref, amount, status, created_at, updated_at)
             VALUES (?, ?, ?, ?, 'stripe', ?, ?, 'completed', ?, ?)`,
          )
          .bind(paymentId, lid(d.listing), uid(owner), uid(d.other), `cs_demo_${paymentId}`, amount, completed, completed),
        db
          .prepare(
            // A finished sale: its money released to the seller (decision 105), so it can be reviewed.
            `INSERT INTO orders (id, payment_id, paid_at, conversation_id, seller_notified_at, buyer_receipt_sent_at, state, settled_at,
                                 money_moved_at)
             VALUES (?, ?, ?, ?, ?, ?, 'released', ?, ?)`,
          )
          .bind(dealId, paymentId, completed, convId, completed, completed, completed, completed),
      );
    } else {
      for (const r of d.rejected ?? []) {
        stmts.push(
          db
            .prepare(
              `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message,
                 status, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'rejected', ?, ?, ?)`,
            )
            .bind(
              randomUUID(),
              convId,
              uid(d.other),
              uid(owner),
              lid(r.offered),
              lid(d.listing),
              r.message,
              iso(r.proposed),
              iso(r.answered),
              iso(r.proposed - 7 * 24 * 60),
            ),
        );
      }
      const offerId = randomUUID();
      const proposedAgo = d.proposed ?? d.completed + 2 * 24 * 60;
      const proposed = iso(proposedAgo);
      stmts.push(
        db
          .prepare(
            `INSERT INTO trade_offers (id, conversation_id, from_user_id, to_user_id, offered_listing_id, requested_listing_id, message,
               status, created_at, updated_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?)`,
          )
          .bind(
            offerId,
            convId,
            uid(d.other),
            uid(owner),
            lid(d.offered!),
            lid(d.listing),
            null,
            proposed,
            completed,
            iso(proposedAgo - 7 * 24 * 60),
          ),
        db
          .prepare(
            `INSERT INTO trades (id, trade_offer_id, user1_id, user2_id, user1_listing_id, user2_listing_id, status, created_at,
               completed_at, user1_confirmed_at, user2_confirmed_at) VALUES (?, ?, ?, ?, ?, ?, 'completed', ?, ?, ?, ?)`,
          )
          .bind(dealId, offerId, uid(d.other), uid(owner), lid(d.offered!), lid(d.listing), proposed, completed, completed, completed),
      );
    }
    for (const r of d.reviews) {
      const reviewee = r.from === owner ? d.other : owner;
      stmts.push(
        db
          .prepare(
            `INSERT INTO reviews (id, deal_kind, deal_id, reviewer_id, reviewee_id, rating, text, window_closes_at, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .bind(randomUUID(), d.kind, dealId, uid(r.from), uid(reviewee), r.rating, r.text, reviewWindowClosesAt(completed), iso(r.ago)),
      );
    }
  }
}
