// Crash durability (issue 15): a stream of writes over HTTP (new listings, chat messages, swap
// accepts, analytics batches) against `npm start`'s server (own port and state directory); halfway
// the server's process groups get SIGKILL, it is started again on the same state, and the stream
// goes on. Afterwards the local D1 (and the raw analytics objects in the local R2) are read and
// checked: every acknowledged write is there exactly once, and nothing is half-written (a listing
// without its search rows, a gap in a conversation's sequence, an accepted swap without its
// transaction or reserved listings, a raw analytics record stored twice).
//
//   npm run bench:durability   # BENCH_PORT (8864), BENCH_SANDBOX_PORT (8867, the payment sandbox),
//                              # BENCH_SECONDS (40: 20 s before the kill, 20 s from the kill on, 20 s
//                              # more), BENCH_OUT (results file)
//
// Chat messages carry their client id, so a send that got no answer (the kill) is sent again after
// the restart, as the web client does; they must all end up stored exactly once. Listings, accepts
// and analytics batches are not retried: an unanswered one may or may not have been stored, but never
// twice and never in part. Payments (webhook deliveries) are not on main yet and not covered.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { AppServer, BenchDb, LoadSampler, ROOT, cores, d1File, ensureBuild, freshState, mintAccessTokens, simpleListing, sleep } from "./support";
import { jpegPhoto } from "../factories/images";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 40);
const server = AppServer.forBench("durability", 8864, 8867);
const STATE = server.stateDir;

/** Writes per second of each kind. */
const RATES = { listing: 1, message: 6, accept: 1, analytics: 2 } as const;
const EVENTS_PER_BATCH = 10;
type Kind = keyof typeof RATES;

interface World {
  creators: string[];
  conversations: { id: string; buyerId: string; sellerId: string }[];
  offers: { id: string; recipientId: string; offeredId: string; requestedId: string }[];
  tokens: Map<string, string>;
  /** An uploaded photo for each new listing, by listing number. */
  photos: string[];
}

async function populate(): Promise<World> {
  freshState(STATE, { demoData: false });
  const db = new BenchDb(STATE);
  const creators = Array.from({ length: 100 }, () => db.user("bench-durable-seller").id);
  const conversations = Array.from({ length: 100 }, (_, i) => {
    const sellerId = db.user("bench-durable-chat").id;
    const buyerId = db.user("bench-durable-chat").id;
    const listing = simpleListing(sellerId, `Samtaleleke ${i}`);
    db.listing(listing);
    return { id: db.conversation(listing.id, buyerId, sellerId), buyerId, sellerId };
  });
  const accepts = Math.ceil(RATES.accept * SECONDS * 1.6);
  const offers = Array.from({ length: accepts }, (_, i) => {
    const fromId = db.user("bench-durable-swap").id;
    const toId = db.user("bench-durable-swap").id;
    const offered = simpleListing(fromId, `Byttebil ${i}`);
    const requested = simpleListing(toId, `Byttedukke ${i}`, { is_trade_offer: 1 });
    db.listing(offered);
    db.listing(requested);
    const conversationId = db.conversation(requested.id, fromId, toId);
    return { id: db.tradeOffer(conversationId, fromId, toId, offered.id, requested.id), recipientId: toId, offeredId: offered.id, requestedId: requested.id };
  });
  db.close();
  return { creators, conversations, offers, tokens: await mintAccessTokens(db.families), photos: [] };
}

// ---- the stream -----------------------------------------------------------------------------------

type Outcome = "acked" | "refused" | "no answer";

interface Write {
  kind: Kind;
  key: string; // listing title, message id, offer id, analytics batch label
  outcome: Outcome;
  status?: number;
  /** What a refusal said (the first 120 characters). */
  reason?: string;
  /** When the answer came, as performance.now(). */
  answeredAt?: number;
  retry?: () => Promise<Outcome>;
}

async function post(pathname: string, body: unknown, userId: string | null, expect: number, address = "198.18.0.1"): Promise<{ outcome: Outcome; status?: number; reason?: string }> {
  try {
    const res = await fetch(`${server.base}${pathname}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: server.origin,
        "CF-Connecting-IP": address,
        ...(userId ? { Cookie: `lb_access=${world!.tokens.get(userId)}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    return res.status === expect ? { outcome: "acked", status: res.status } : { outcome: "refused", status: res.status, reason: text.slice(0, 120) };
  } catch {
    return { outcome: "no answer" };
  }
}

let world: World | null = null;
let killedAt: number | null = null;
const writes: Write[] = [];
const counters: Record<Kind, number> = { listing: 0, message: 0, accept: 0, analytics: 0 };

function startWrite(kind: Kind): Promise<void> {
  const n = counters[kind]++;
  const w = world!;
  let request: () => Promise<{ outcome: Outcome; status?: number; reason?: string }>;
  let key: string;
  let retryable = false;
  switch (kind) {
    case "listing": {
      key = `Varig leke nr ${n}`;
      const body = { title: key, description: "Skrevet under krasjtesten.", category: "lego", age_range: "3-5 år", condition_rating: 4, price: 150, postal_code: "0150", images: [w.photos[n]] };
      request = () => post("/api/listings", body, w.creators[n % w.creators.length], 201);
      break;
    }
    case "message": {
      key = randomUUID();
      const c = w.conversations[n % w.conversations.length];
      const from = Math.floor(n / w.conversations.length) % 2 === 0 ? c.buyerId : c.sellerId;
      const body = { id: key, content: `Melding ${n}` };
      request = () => post(`/api/conversations/${c.id}/messages`, body, from, 201);
      retryable = true;
      break;
    }
    case "accept": {
      const offer = w.offers[n];
      if (!offer) return Promise.resolve();
      key = offer.id;
      request = () => post(`/api/trade-offers/${offer.id}/accept`, {}, offer.recipientId, 200);
      break;
    }
    case "analytics": {
      key = `varig-${n}`;
      const sessionId = randomUUID();
      const events = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => ({
        eventType: "page_view",
        eventCategory: "navigation",
        eventAction: "view",
        eventLabel: `${key}-${i}`,
        eventValue: null,
        metadata: { sessionId, timestamp: new Date().toISOString(), page: "/", userAgent: "bench", referrer: null, pageUrl: `${server.origin}/` },
      }));
      request = () => post("/api/analytics/events", { sessionId, events }, null, 202, `198.18.1.${(n % 200) + 1}`);
      break;
    }
  }
  const write: Write = { kind, key, outcome: "no answer" };
  writes.push(write);
  return request().then(({ outcome, status, reason }) => {
    write.outcome = outcome;
    write.status = status;
    write.reason = reason;
    write.answeredAt = performance.now();
    if (retryable && outcome === "no answer") write.retry = async () => (await request()).outcome;
  });
}

/** Each kind at its rate for `seconds` (open loop); resolves when every request has answered or failed. */
async function stream(seconds: number, during?: () => Promise<void>): Promise<void> {
  const started = performance.now();
  const pending: Promise<void>[] = [];
  const sent: Record<Kind, number> = { listing: 0, message: 0, accept: 0, analytics: 0 };
  let side: Promise<void> | null = null;
  for (;;) {
    const elapsed = (performance.now() - started) / 1000;
    if (elapsed >= seconds) break;
    for (const kind of Object.keys(RATES) as Kind[]) {
      while (sent[kind] < Math.floor(elapsed * RATES[kind]) + 1) {
        pending.push(startWrite(kind));
        sent[kind]++;
      }
    }
    if (during && !side) side = during();
    await sleep(10);
  }
  await Promise.all(pending);
  if (side) await side;
}

// ---- the checks -----------------------------------------------------------------------------------

interface Row {
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

function rowFor(kind: Kind, label: string, count: (key: string) => number): Row {
  const of = writes.filter((w) => w.kind === kind);
  const row: Row = { kind: label, sent: of.length, acked: 0, noAnswer: 0, refused: 0, storedOfAcked: 0, storedOfUnanswered: 0, missing: 0, doubled: 0, halfWritten: 0, notes: [] };
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
    row.notes.push(`refused: ${Object.entries(refusedStatuses).map(([s, k]) => `${k}× ${s}`).join(", ")} (first: ${first?.reason})`);
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

function check(): Row[] {
  const db = new DatabaseSync(d1File(STATE), { readOnly: true });
  const all = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).all(...args) as T[];
  const one = <T>(sql: string, ...args: (string | number)[]) => db.prepare(sql).get(...args) as T;

  // Listings: by their unique title; each with its search row and both full-text rows.
  const titles = new Map<string, number>();
  for (const r of all<{ title: string; n: number }>("SELECT title, COUNT(*) AS n FROM listings WHERE title LIKE 'Varig leke nr %' GROUP BY title")) titles.set(r.title, r.n);
  const listings = rowFor("listing", "new listing (POST /api/listings)", (k) => titles.get(k) ?? 0);
  listings.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM listings l LEFT JOIN listing_search_map s ON s.listing_id = l.id
     WHERE l.title LIKE 'Varig leke nr %' AND (s.rid IS NULL OR NOT EXISTS (SELECT 1 FROM listings_fts f WHERE f.rowid = s.rid)
       OR NOT EXISTS (SELECT 1 FROM listings_fts_trigram t WHERE t.rowid = s.rid))`,
  ).n;

  // Messages: by client id; each conversation's sequence 1..last_seq without gaps or doubles.
  const messageIds = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM messages")) messageIds.set(r.id, (messageIds.get(r.id) ?? 0) + 1);
  const messages = rowFor("message", "chat message (POST …/messages, resent once back)", (k) => messageIds.get(k) ?? 0);
  messages.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM conversations c
     WHERE c.last_seq <> (SELECT COUNT(*) FROM messages m WHERE m.conversation_id = c.id)
        OR c.last_seq <> COALESCE((SELECT MAX(seq) FROM messages m WHERE m.conversation_id = c.id), 0)`,
  ).n;
  const resent = writes.filter((w) => w.kind === "message" && w.retry).length;
  if (resent) messages.notes.push(`${resent} resent after the restart`);

  // Swap accepts: accepted ⇔ one pending transaction and both listings reserved; else no transaction, both active.
  const accepted = new Map<string, number>();
  for (const r of all<{ id: string }>("SELECT id FROM trade_offers WHERE status = 'accepted'")) accepted.set(r.id, 1);
  const accepts = rowFor("accept", "swap accept (POST /api/trade-offers/:id/accept)", (k) => accepted.get(k) ?? 0);
  accepts.halfWritten = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o
     WHERE (o.status = 'accepted' AND (
              (SELECT COUNT(*) FROM trade_transactions t WHERE t.trade_offer_id = o.id) <> 1
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'reserved') <> 2))
        OR (o.status = 'pending' AND (
              EXISTS (SELECT 1 FROM trade_transactions t WHERE t.trade_offer_id = o.id)
           OR (SELECT COUNT(*) FROM listings l WHERE l.id IN (o.offered_listing_id, o.requested_listing_id) AND l.status = 'active') <> 2))`,
  ).n;
  const withoutNotice = one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM trade_offers o WHERE o.status = 'accepted'
       AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.conversation_id = o.conversation_id AND m.sender_id <> o.from_user_id AND m.sender_id <> o.to_user_id AND m.created_at >= o.updated_at)`,
  ).n;
  if (withoutNotice) accepts.notes.push(`${withoutNotice} accepted without the chat's system message (posted after the batch)`);
  db.close();

  // Analytics: every event of a batch by its label, in the raw NDJSON objects of the local R2.
  const labels = new Map<string, number>();
  for (const file of r2Blobs(path.join(STATE, "v3/r2"))) {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const record = JSON.parse(line) as { kind?: string; eventLabel?: string };
        if (record.kind === "event" && record.eventLabel?.startsWith("varig-")) labels.set(record.eventLabel, (labels.get(record.eventLabel) ?? 0) + 1);
      } catch {
        // not an analytics object
      }
    }
  }
  const analyticsCount = (k: string) => {
    const n = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0);
    return Math.max(...n);
  };
  for (const w of writes) if (w.kind === "analytics" && analyticsCount(w.key) === 0) lostAnalytics.add(w.key);
  const analytics = rowFor("analytics", `analytics batch of ${EVENTS_PER_BATCH} events (POST /api/analytics/events)`, (k) => {
    const counts = Array.from({ length: EVENTS_PER_BATCH }, (_, i) => labels.get(`${k}-${i}`) ?? 0);
    const present = counts.filter((n) => n > 0).length;
    if (present > 0 && present < EVENTS_PER_BATCH) partialBatches++;
    return present === 0 ? 0 : Math.max(...counts);
  });
  analytics.halfWritten = partialBatches;
  return [listings, messages, accepts, analytics];
}
let partialBatches = 0;
const lostAnalytics = new Set<string>();
/** The analytics consumer's batch timeout (wrangler.toml max_batch_timeout) plus a second. */
const QUEUE_WINDOW_MS = 6_000;

// ---- run ------------------------------------------------------------------------------------------

async function main() {
  ensureBuild();
  console.log(`Writing the bench users, conversations and ${Math.ceil(RATES.accept * SECONDS * 1.6)} pending swap offers into ${path.relative(ROOT, STATE)} …`);
  world = await populate();
  process.on("SIGINT", () => process.exit(130));
  server.start();
  await server.waitUntilReady();
  // The photos the new listings will carry (a listing needs one), uploaded by their sellers first.
  const photo = jpegPhoto(320, 240);
  for (let n = 0; n < RATES.listing * SECONDS * 1.6; n++) {
    const res = await fetch(`${server.base}/api/images`, {
      method: "POST",
      headers: { "Content-Type": "image/jpeg", Origin: server.origin, Cookie: `lb_access=${world.tokens.get(world.creators[n % world.creators.length])}` },
      body: photo,
    });
    if (res.status !== 201) throw new Error(`photo upload: ${res.status} ${await res.text()}`);
    world.photos.push(((await res.json()) as { key: string }).key);
  }
  const load = new LoadSampler();
  load.start();
  const rates = (Object.entries(RATES) as [Kind, number][]).map(([k, r]) => `${k} ${r}/s`).join(", ");
  console.log(`Writing for ${SECONDS / 2} s (${rates}), then SIGKILL …`);
  await stream(SECONDS / 2);

  let downSeconds = 0;
  const killedWrites = writes.length;
  // The stream goes on while the server is down and coming back (those writes get no answer).
  await stream(SECONDS / 2, async () => {
    killedAt = performance.now();
    await server.kill();
    console.log("SIGKILL sent to the server's process groups; starting it again on the same state …");
    server.start();
    await server.waitUntilReady();
    downSeconds = (performance.now() - killedAt!) / 1000;
    console.log(`Back after ${downSeconds.toFixed(1)} s; writing for another ${SECONDS / 2} s`);
  });
  await stream(SECONDS / 2);

  // Messages that got no answer are sent again with the same id, as the chat client does.
  for (const w of writes.filter((x) => x.retry)) {
    for (let attempt = 0; attempt < 5 && w.outcome !== "acked"; attempt++) w.outcome = await w.retry!();
  }
  // Let the analytics queue hand its last batches to the consumer (up to 5 s per batch locally).
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 40 && stable < 2; i++) {
    const res = await fetch(`${server.base}/api/dev/analytics/summary`).then((r) => r.json() as Promise<{ records: number }>);
    stable = res.records === last ? stable + 1 : 0;
    last = res.records;
    await sleep(6_000);
  }
  await server.stop();
  const loadAvg = load.stop();

  const rows = check();
  const table = [
    "| write | sent | acknowledged | no answer (kill) | refused | acknowledged and stored | acknowledged, missing | unanswered but stored | stored twice | half-written |",
    "|---|---|---|---|---|---|---|---|---|---|",
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.sent} | ${r.acked} | ${r.noAnswer} | ${r.refused} | ${r.storedOfAcked} | ${r.missing} | ${r.storedOfUnanswered} | ${r.doubled} | ${r.halfWritten} |`,
    ),
  ].join("\n");
  const notes = rows.flatMap((r) => r.notes.map((n) => `- ${r.kind}: ${n}`)).join("\n");
  // The local Queue (miniflare's queue broker) keeps messages in memory until its consumer takes a
  // batch (up to 5 s here), so a SIGKILL of the local server drops what it held; Cloudflare Queues
  // guarantee delivery once send() has resolved. Such losses are told apart, not hidden.
  const inQueueAtKill = writes.filter(
    (w) => w.kind === "analytics" && w.outcome === "acked" && lostAnalytics.has(w.key) && killedAt !== null && w.answeredAt! < killedAt && killedAt - w.answeredAt! <= QUEUE_WINDOW_MS,
  ).length;
  const failed = rows.some((r) => (r.kind.startsWith("analytics") ? r.missing - inQueueAtKill : r.missing) > 0 || r.doubled > 0 || r.halfWritten > 0);
  const when = new Date().toISOString().slice(0, 16) + "Z";
  const header =
    `Writes (${rates}) for ${SECONDS / 2} s, SIGKILL, ${SECONDS / 2} s while it restarts (back after ${downSeconds.toFixed(1)} s), ${SECONDS / 2} s more; ` +
    `${writes.length - killedWrites} writes sent from the kill on; ${when}, ` +
    `command: \`npm run bench:durability\`. Machine: ${cores()} cores, 1-minute load average ${loadAvg.min.toFixed(1)}–${loadAvg.max.toFixed(1)}.`;
  const verdict = [
    failed ? "NOT durable: see the rows with missing, doubled or half-written writes." : "Every acknowledged write in D1 is stored exactly once; nothing is half-written.",
    inQueueAtKill
      ? `${inQueueAtKill} acknowledged analytics batches were in the local Queue's memory at the kill (acknowledged within its ${QUEUE_WINDOW_MS / 1000} s batch window before it) and are lost: ` +
        "miniflare's queue broker does not persist messages; Cloudflare Queues deliver a message at least once after send() has resolved."
      : "",
  ]
    .filter(Boolean)
    .join(" ");
  console.log(`\n${header}\n\n${table}\n\n${notes}\n\n${verdict}`);
  const out = process.env.BENCH_OUT ?? path.join(ROOT, "tests/bench/results/durability.md");
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `# Crash durability\n\n${header}\n\n${table}\n\n${notes}\n\n${verdict}\n`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(err);
  server.signal("SIGTERM");
  process.exit(1);
});
