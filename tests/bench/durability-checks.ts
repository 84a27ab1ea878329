// The durability bench's checks, read from the local D1 file and the local R2's objects once the
// server has stopped: every acknowledged write stored exactly once, nothing half-written (the chat
// rooms beside their D1 mirror: durability-rooms.ts).
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { SYSTEM_USER_ID } from "../../domain/chat";
import { ORDER_CHAT_TEXTS } from "../../domain/order-texts";
import { writes } from "./durability-stream";
import { EVENTS_PER_BATCH, type Kind, STATE, type World } from "./durability-world";
import { d1File } from "./support";

/** What the run saw around the kill and after the stream, for the checks. */
export interface Observed {
  /** When the server was killed (performance.now()). */
  killedAt: number | null;
  /** Acknowledged messages that were in their room but not in D1 yet when the server was killed. */
  roomOnlyAtKill: Set<string>;
  /** Message ids per conversation as the rooms serve them (their history), read before the clean stop. */
  roomHistories: Map<string, string[]> | null;
  /** Seconds the mirror needed after the stream to have every acknowledged message in D1. */
  mirrorCatchUpSeconds: number | null;
  /** Transfers (card) and captures (Vipps) the sandbox made for each release's order, by order id. */
  moneyMoves: Map<string, number>;
  /** The amounts of the transfers (card) and captures (Vipps) the sandbox made for each sent toy's order. */
  shippedMoves: Map<string, number[]>;
  /** Tracking webhooks delivered (and acknowledged) before the stream, for the sent toys' parcels. */
  trackingEvents: number;
  /** Every acknowledged webhook delivered once more: deliveries, answered 2xx, flagged as a duplicate. */
  duplicates: { sent: number; acked: number; flagged: number };
}

export interface Row {
  kind: string;
  sent: number;
  acked: number;
  noAnswer: number;
  refused: number;
  storedOfAcked: number;
  storedOfUnanswered: number;
  missing: number;
  doubled: number;
  halfWritten: number;
  notes: string[];
}

function rowFor(killedAt: number | null, kind: Kind, label: string, count: (key: string) => number): Row {
  const of = writes.filter((w) => w.kind === kind);
  const row: Row = {
    kind: label,
    sent: of.length,
    acked: 0,
    noAnswer: 0,
    refused: 0,
    storedOfAcked: 0,
    storedOfUnanswered: 0,
    missing: 0,
    doubled: 0,
    halfWritten: 0,
    notes: [],
  };
  const refusedStatuses: Record<string, number> = {};
  for (const w of of) {
    const n = count(w.key);
    if (n > 1) row.doubled++;
    if (w.outcome === "acked") {
      row.acked++;
      if (n >= 1) row.storedOfAcked++;
      else row.missing++;
    } else if (w.outcome === "no answer") {
      row.noAnswer++;
      if (n >= 1) row.storedOfUnanswered++;
    } else {
      row.refused++;
      refusedStatuses[w.status ?? 0] = (refusedStatuses[w.status ?? 0] ?? 0) + 1;
    }
  }
  if (row.refused) {
    const first = of.find((w) => w.outcome === "refused");
    row.notes.push(
      `refused: ${Object.entries(refusedStatuses)
        .map(([s, k]) => `${k}× ${s}`)
        .join(", ")} (first: ${first?.reason})`,
    );
  }
  const lost = of.filter((w) => w.outcome === "acked" && count(w.key) === 0 && w.answeredAt !== undefined);
  if (lost.length && killedAt !== null) {
    const before = lost.filter((w) => w.answeredAt! < killedAt!);
    const ages = before.map((w) => (killedAt! - w.answeredAt!) / 1000);
    row.notes.push(
      `${before.length} of the ${lost.length} missing were acknowledged before the kill` +
        (ages.length ? `, ${Math.min(...ages).toFixed(1)}–${Math.max(...ages).toFixed(1)} s before it` : ""),
    );
  }
  return row;
}

/** Every file the local R2 keeps object bodies in (miniflare: `<state>/v3/r2/<bucket>/blobs/<id>`). */
function r2Blobs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d)) {
      const full = path.join(d, entry);
      if (statSync(full).isDirectory()) walk(full);
      else if (path.basename(d) === "blobs") out.push(full);
    }
  };
  walk(dir);
  return out;
}

export function check(world: World, o: Observed): { rows: Row[]; lostAnalytics: Set<string> } {
  const { killedAt, roomOnlyAtKill, roomHistories, mirrorCatchUpSeconds, moneyMoves, duplicates } = o;
  const lostAnalytics = new Set<string>();
  let partialBatches = 0;
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  const all = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).all(...args) as T[];
  const one = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).get(...args) as T;

  // Listings: by their unique title; each with its search row and both full-text rows.
  const titles = new Map<string, number>();
  for (const r of all<{ title: string; n: number }>(
    "SELECT title, COUNT(*) AS n FROM listings WHERE title LIKE 'Varig leke nr %' GROUP BY title",
  ))
    titles.set(r.title, r.n);
  const listings = rowFor(killedAt, "listing", "new listing (POST /api/listings)", (k) => titles.get(k) ?? 0);
  listings.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM listings l LEFT JOIN listing_search_map s ON s.listing_id = l.id
     WHERE l.title LIKE 'Varig leke nr %' AND (s.rid IS NULL OR NOT EXISTS (SELECT 1 FROM listings_fts f WHERE f.rowid = s.rid)
       OR NOT EXISTS (SELECT 1 FROM listings_fts_trigram t WHERE t.rowid = s.rid))`,
  ).n;

  // Messages: by client id; each conversation's sequence 1..last_seq without gaps or doubles.
  const messageIds = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM messages")) messageIds.set(r.id, (messageIds.get(r.id) ?? 0) + 1);
  const messages = rowFor(killedAt, "message", "chat message (POST …/messages, resent once back)", (k) => messageIds.get(k) ?? 0);
  messages.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM conversations c
     WHERE c.last_seq <> (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)
        OR c.last_seq <> COALESCE((SELECT MAX(seq) FROM messages m WHERE m.conversation_id = c.id), 0)`,
  ).n;
  const resent = writes.filter((w) => w.kind === "message" && w.retry).length;
  if (resent) messages.notes.push(`${resent} resent after the restart`);
  const ackedMessages = writes.filter((w) => w.kind === "message" && w.outcome === "acked");
  const lateOnes = ackedMessages.filter((w) => roomOnlyAtKill.has(w.key));
  messages.notes.push(
    `${roomOnlyAtKill.size} acknowledged messages were in their room but not yet in D1 at the kill; ` +
      `${lateOnes.filter((w) => messageIds.get(w.key) === 1).length} of them reached D1 after the restart, once` +
      (mirrorCatchUpSeconds === null
        ? "; the mirror had not caught up when the wait ended"
        : `; D1 had every acknowledged message ${mirrorCatchUpSeconds.toFixed(1)} s after the stream`),
  );

  // The same messages in their rooms (the source the chat reads), and each room's history equal to D1's.
  const inRooms = new Map<string, number>();
  for (const ids of roomHistories?.values() ?? []) for (const id of ids) inRooms.set(id, (inRooms.get(id) ?? 0) + 1);
  const rooms = rowFor(killedAt, "message", "chat message in its room (history from the ConversationRoom)", (k) => inRooms.get(k) ?? 0);
  rooms.halfWritten = [...(roomHistories ?? new Map<string, string[]>())].filter(([conversationId, ids]) => {
    const inD1 = all<{ id: string }>("SELECT id FROM messages WHERE conversation_id = ?1 ORDER BY seq", conversationId).map((r) => r.id);
    return inD1.join() !== ids.join();
  }).length;
  if (rooms.halfWritten)
    rooms.notes.push(`${rooms.halfWritten} conversations whose room history differs from D1's (half-written: the mirror)`);

  // Trade accepts: accepted ⇔ one pending trade and both listings reserved; else no trade, both active.
  const accepted = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM trade_offers WHERE status = 'accepted'")) accepted.set(r.id, 1);
  const accepts = rowFor(killedAt, "accept", "trade accept (POST /api/trade-offers/:id/accept)", (k) => accepted.get(k) ?? 0);
  accepts.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o
     WHERE (o.status = 'accepted' AND (
              (SELECT COUNT(*) FROM trades t WHERE t.trade_offer_id = o.id) <> 1
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'reserved') <> 2))
        OR (o.status = 'pending' AND (
              EXISTS (SELECT 1 FROM trades t WHERE t.trade_offer_id = o.id)
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'active') <> 2))`,
  ).n;
  const withoutNotice = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o WHERE o.status = 'accepted'
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = o.conversation_id AND m.sender_id <> o.from_user_id AND m.sender_id <> o.to_user_id AND m.created_at >= o.updated_at)`,
  ).n;
  if (withoutNotice) accepts.notes.push(`${withoutNotice} accepted without the chat's system message (posted after the batch)`);

  // Webhooks: by payment. Its effect: the payment completed, one order, the listing sold, one
  // sale message from the system in the buyer–seller conversation, one sale mail to the seller, the
  // money held (decision 105: nothing moved before release), the event recorded; a listing never paid twice.
  const sales = new Map(world.sales.map((s) => [s.paymentId!, s]));
  const effects = new Map<
    string,
    {
      completed: number;
      orders: number;
      sold: number;
      messages: number;
      mails: number;
      held: number;
      events: number;
      paidForListing: number;
    }
  >();
  for (const [paymentId, sale] of sales) {
    effects.set(
      paymentId,
      one(
        `SELECT (SELECT COUNT(*) FROM payments WHERE id = ?1 AND status = 'completed') AS completed,
                (SELECT COUNT(*) FROM orders WHERE payment_id = ?1) AS orders,
                (SELECT COUNT(*) FROM listings WHERE id = ?2 AND status = 'sold') AS sold,
                (SELECT COUNT(*) FROM messages m JOIN orders t ON t.conversation_id = m.conversation_id
                  WHERE t.payment_id = ?1 AND m.sender_id = ?3) AS messages,
                (SELECT COUNT(*) FROM dev_outbox o JOIN users u ON u.email = o.to_address WHERE u.id = ?4 AND o.subject = ?5) AS mails,
                (SELECT COUNT(*) FROM orders WHERE payment_id = ?1 AND state = 'held' AND money_moved_at IS NULL) AS held,
                (SELECT COUNT(*) FROM webhook_events WHERE type IN ('checkout.session.completed', 'epayments.payment.authorized.v1')
                  AND id IN ('stripe:' || ?6, 'vipps:lb-' || ?1 || ':AUTHORIZED:' || ?7)) AS events,
                (SELECT COUNT(*) FROM payments WHERE listing_id = ?2 AND status = 'completed') AS paidForListing`,
        paymentId,
        sale.listingId,
        SYSTEM_USER_ID,
        sale.sellerId,
        `Du har solgt «${sale.title}»`,
        sale.method === "card" ? (JSON.parse(sale.webhook!.body) as { id: string }).id : "",
        sale.method === "vipps" ? (JSON.parse(sale.webhook!.body) as { pspReference: string }).pspReference : "",
      ),
    );
  }
  const webhooks = rowFor(killedAt, "webhook", "payment webhook (Stripe and Vipps, signed; not 2xx: delivered again once back)", (k) => {
    const e = effects.get(k)!;
    return Math.max(e.orders, e.messages, e.mails, e.paidForListing);
  });
  const partial = [...effects.values()].filter((e) => {
    const parts = [e.completed, e.orders, e.sold, e.messages, e.mails, e.held, e.events];
    return parts.some((n) => n > 0) && parts.some((n) => n !== 1);
  });
  webhooks.halfWritten = partial.length;
  if (partial.length) webhooks.notes.push(`half-written: ${JSON.stringify(partial.slice(0, 3))}`);
  const resentHooks = writes.filter((w) => w.kind === "webhook" && w.retry).length;
  if (resentHooks) webhooks.notes.push(`${resentHooks} delivered again after the restart`);
  if (duplicates.sent) {
    webhooks.notes.push(
      `every acknowledged webhook delivered once more afterwards: ${duplicates.sent} deliveries, ${duplicates.acked} answered 2xx, ${duplicates.flagged} of them as a duplicate`,
    );
  }
  // Releases: released once, and then exactly one Transfer or capture at the sandbox; an order
  // still held has none; a released order's money acknowledged (money_moved_at).
  const releaseState = new Map<string, { released: number; moved: number }>();
  for (const sale of world.releases) {
    releaseState.set(
      sale.orderId!,
      one<{ released: number; moved: number }>(
        "SELECT (state = 'released') AS released, (money_moved_at IS NOT NULL) AS moved FROM orders WHERE id = ?1",
        sale.orderId!,
      ),
    );
  }
  const releases = rowFor(killedAt, "release", "release of held money (POST /api/payments/orders/:id/received: Transfer or capture)", (k) =>
    Math.max(releaseState.get(k)?.released ?? 0, moneyMoves.get(k) ?? 0),
  );
  const unevenReleases = [...releaseState].filter(([k, r]) =>
    r.released ? (moneyMoves.get(k) ?? 0) !== 1 || !r.moved : (moneyMoves.get(k) ?? 0) !== 0,
  );
  releases.halfWritten = unevenReleases.length;
  if (unevenReleases.length)
    releases.notes.push(
      `money not moved exactly once: ${JSON.stringify(unevenReleases.slice(0, 3).map(([k, r]) => ({ k, ...r, moves: moneyMoves.get(k) ?? 0 })))}`,
    );
  const resentReleases = writes.filter((w) => w.kind === "release" && w.retry).length;
  if (resentReleases) releases.notes.push(`${resentReleases} pressed again after the restart`);
  const shipped = checkShipped(world, o, one);
  db.close();

  // Analytics: every event of a batch by its label, in the raw NDJSON objects of the local R2.
  const labels = analyticsLabels();
  const analyticsCount = (k: string) => Math.max(...Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0));
  for (const w of writes) if (w.kind === "analytics" && analyticsCount(w.key) === 0) lostAnalytics.add(w.key);
  const analytics = rowFor(killedAt, "analytics", `analytics batch of ${EVENTS_PER_BATCH} events (POST /api/analytics/events)`, (k) => {
    const counts = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0);
    const present = counts.filter((n) => n > 0).length;
    if (present > 0 && present < EVENTS_PER_BATCH) partialBatches++;
    return present === 0 ? 0 : Math.max(...counts);
  });
  analytics.halfWritten = partialBatches;
  return { rows: [listings, messages, rooms, accepts, webhooks, releases, shipped, analytics], lostAnalytics };
}

/**
 * Sent toys (decisions 149, 150, 153): every one released exactly once, whether by its buyer or by
 * the cron (one Transfer of the toy's price less the fee, never the shipping, or one Vipps capture
 * of the whole payment, acknowledged), its parcel delivered with each tracking event recorded once,
 * the order's rows whole (handed over at the delivery with its 48 hours, settled, nothing refunded)
 * and at most one release message in its chat.
 */
function checkShipped(world: World, o: Observed, one: <T>(sql: string, ...args: (string | number)[]) => T): Row {
  const facts = new Map(
    world.shipped.map((sale) => [
      sale.orderId!,
      one<{
        released: number;
        moved: number;
        whole: number;
        delivered: number;
        payout: number;
        amount: number;
        applied: number;
        byBuyer: number;
        byCron: number;
      }>(
        `SELECT (o.state = 'released') AS released, (o.money_moved_at IS NOT NULL) AS moved,
                (o.handed_over_at IS NOT NULL AND o.release_due_at IS NOT NULL AND o.settled_at IS NOT NULL AND o.refund_ref IS NULL) AS whole,
                (s.state = 'delivered' AND s.delivered_notice_at IS NOT NULL) AS delivered,
                p.amount - s.shipping_price - p.platform_fee AS payout, p.amount AS amount,
                (SELECT COUNT(*) FROM shipment_events e WHERE e.carrier = s.carrier AND e.shipment_number = s.shipment_number AND e.applied IS NOT NULL) AS applied,
                (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = o.conversation_id AND m.sender_id = ?2 AND m.content = ?3) AS byBuyer,
                (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = o.conversation_id AND m.sender_id = ?2 AND m.content = ?4) AS byCron
         FROM orders o JOIN payments p ON p.id = o.payment_id JOIN shipments s ON s.order_id = o.id WHERE o.id = ?1`,
        sale.orderId!,
        SYSTEM_USER_ID,
        ORDER_CHAT_TEXTS.released,
        ORDER_CHAT_TEXTS.autoReleased,
      ),
    ]),
  );
  const moves = (k: string) => o.shippedMoves.get(k) ?? [];
  const row = rowFor(o.killedAt, "shipped", "sent toy released (buyer's «Jeg har fått varen», or the cron 48 h after delivered)", (k) =>
    Math.max(facts.get(k)?.released ?? 0, moves(k).length),
  );
  const sale = (k: string) => world.shipped.find((s) => s.orderId === k)!;
  const uneven = [...facts].filter(([k, f]) => {
    const expected = sale(k).method === "card" ? f.payout : f.amount;
    return (
      !f.released || !f.moved || !f.whole || !f.delivered || moves(k).length !== 1 || moves(k)[0] !== expected || f.byBuyer + f.byCron > 1
    );
  });
  row.halfWritten = uneven.length;
  if (uneven.length)
    row.notes.push(
      `not released exactly once, or half-written: ${JSON.stringify(uneven.slice(0, 3).map(([k, f]) => ({ k, ...f, moves: moves(k) })))}`,
    );
  const applied = [...facts.values()].reduce((n, f) => n + f.applied, 0);
  if (applied !== o.trackingEvents) row.halfWritten++;
  const buyer = [...facts.values()].filter((f) => f.byBuyer).length;
  const cron = [...facts.values()].filter((f) => f.byCron).length;
  row.notes.push(
    `${world.shipped.length} parcels booked and delivered before the stream (${o.trackingEvents} tracking webhooks, ${applied} recorded as applied); ` +
      `released by the buyer ${buyer}, by the cron ${cron} (its last tick after the stream included), ` +
      `${world.shipped.length - buyer - cron} without a release message in D1 (announced after the release's batch)`,
  );
  const resent = writes.filter((w) => w.kind === "shipped" && w.retry).length;
  if (resent) row.notes.push(`${resent} sent again after the restart`);
  return row;
}

/** Count of each bench event label in the raw analytics objects of the local R2 (read from its files). */
export function analyticsLabels(): Map<string, number> {
  const labels = new Map<string, number>();
  for (const file of r2Blobs(path.join(STATE, "v3/r2"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const record = JSON.parse(line) as { kind?: string; eventLabel?: string };
        if (record.kind === "event" && record.eventLabel?.startsWith("varig-"))
          labels.set(record.eventLabel, (labels.get(record.eventLabel) ?? 0) + 1);
      } catch {
        // not an analytics object, or one being written
      }
    }
  }
  return labels;
}
