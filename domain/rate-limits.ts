// Every rate limit in one table (docs/decisions/010-rate-limits.md), of two kinds:
// - `RateRule`: an exact sliding window in D1, `enforceRateLimit(db, RATE_RULES.x, subject)` /
//   `enforceRateLimits(db, [[rule, subject], …])` (worker/lib/rate-limit.ts). A burst across a window
//   edge gets no extra attempts, but every counted request is a write on D1's single writer: for
//   the low-volume rules whose long window matters (sign-in, sign-up, reports, payments …).
// - `BindingRateRule`: Cloudflare's Rate Limiting binding, `enforceBindingLimit(env, RATE_RULES.x,
//   subject)`: no D1 write, but only 10 or 60 s windows, counted per Cloudflare location and
//   approximately. For the high-volume rules (analytics, search, favourites, uploads). Each has its
//   `[[ratelimits]]` entry in wrangler.toml with the same name, limit and period (a worker test
//   compares them).
// Add the rules of new features here.

export interface RateRule {
  /** Key prefix in the rate_limits table, e.g. "signin:address". Never reuse one for another rule. */
  scope: string;
  /** Requests allowed within any window of `windowSeconds`. */
  limit: number;
  windowSeconds: number;
}

export interface BindingRateRule {
  /** The binding's name in wrangler.toml `[[ratelimits]]` (one binding per rule: limit and period are the binding's). */
  binding: `RL_${string}`;
  /** Key prefix of the binding's counters, e.g. "search:address". Never reuse one for another rule. */
  scope: string;
  /** Requests allowed per period and Cloudflare location. */
  limit: number;
  /** The binding accepts only these two. */
  periodSeconds: 10 | 60;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

export const RATE_RULES = {
  // Sign-in: an address may try many accounts a little and one account a little; an account takes
  // far more attempts (from many addresses) before it refuses, so a stranger cannot lock its owner
  // out by guessing from a handful of addresses.
  signinAddress: { scope: "signin:address", limit: 60, windowSeconds: 15 * MINUTE },
  signinAddressAccount: { scope: "signin:address-account", limit: 10, windowSeconds: HOUR },
  signinAccount: { scope: "signin:account", limit: 200, windowSeconds: HOUR },
  // A device that signed in before (its signed device cookie, docs/decisions/084-device-cookies.md)
  // skips the three rules above and is limited per cookie instead, so others' failures never lock
  // it out and a stolen cookie gets only these few guesses. Every sign-in renews the cookie.
  signinDevice: { scope: "signin:device", limit: 10, windowSeconds: HOUR },
  // E-mail confirmation links (one-time codes of 32 random bytes).
  callbackAddress: { scope: "callback:address", limit: 60, windowSeconds: 15 * MINUTE },
  signupAddress: { scope: "signup:address", limit: 20, windowSeconds: HOUR },
  signupAccount: { scope: "signup:account", limit: 3, windowSeconds: HOUR },
  resendAddress: { scope: "resend:address", limit: 20, windowSeconds: HOUR },
  resendAccount: { scope: "resend:account", limit: 3, windowSeconds: 15 * MINUTE },
  // Asking for the password again (account deletion, data export): guesses like sign-in.
  reauthAddress: { scope: "reauth:address", limit: 30, windowSeconds: 15 * MINUTE },
  reauthAccount: { scope: "reauth:account", limit: 10, windowSeconds: 15 * MINUTE },
  // Vipps Login (decision 128): each start stores a login and each callback calls Vipps, per address;
  // proving a matched account by password counts as sign-in guesses (the sign-in rules above), and
  // its mailed link is limited like the confirmation mail.
  vippsStartAddress: { scope: "vipps-start:address", limit: 30, windowSeconds: 15 * MINUTE },
  vippsCallbackAddress: { scope: "vipps-callback:address", limit: 60, windowSeconds: 15 * MINUTE },
  vippsLinkMailAccount: { scope: "vipps-link-mail:account", limit: 3, windowSeconds: 15 * MINUTE },
  vippsLinkMailAddress: { scope: "vipps-link-mail:address", limit: 20, windowSeconds: HOUR },
  // "Glemt passord?" (docs/decisions/125-account-recovery.md): per client address and per typed
  // e-mail address a 429 (the same whether or not the address has an account); per account silently
  // (the same answer, no new link), so the count never tells an account from a stranger's address.
  passwordResetAddress: { scope: "password-reset:address", limit: 20, windowSeconds: HOUR },
  passwordResetEmail: { scope: "password-reset:email", limit: 3, windowSeconds: 15 * MINUTE },
  passwordResetAccount: { scope: "password-reset:account", limit: 5, windowSeconds: HOUR },
  // Opening a mailed link ("Lag nytt passord", confirming or stopping an e-mail change): 32 random
  // bytes cannot be guessed; this only keeps someone from hammering the look-up.
  accountLinkAddress: { scope: "account-link:address", limit: 60, windowSeconds: 15 * MINUTE },
  // "Endre e-post": each request mails the new and the old address.
  emailChangeAccount: { scope: "email-change:account", limit: 5, windowSeconds: HOUR },
  // "Logg ut" of one device and "Logg ut alle andre", per user.
  sessionEnd: { scope: "session-end:user", limit: 60, windowSeconds: HOUR },
  newsletterAddress: { scope: "newsletter:address", limit: 20, windowSeconds: HOUR },
  newsletterAccount: { scope: "newsletter:account", limit: 5, windowSeconds: HOUR },
  contactAddress: { scope: "contact:address", limit: 10, windowSeconds: HOUR },
  // Signed-in actions, per user. Uploads (listing photos, at most five a listing, and problem photos)
  // on the binding: 30 a minute is six listings' photos, far above a person's pace; a script stops.
  upload: { binding: "RL_UPLOAD", scope: "upload:user", limit: 30, periodSeconds: 60 },
  listingCreate: { scope: "listing-create:user", limit: 30, windowSeconds: HOUR },
  listingEdit: { scope: "listing-edit:user", limit: 120, windowSeconds: HOUR },
  listingStatus: { scope: "listing-status:user", limit: 120, windowSeconds: HOUR },
  // Favourites (add and remove) on the binding: a heart every two seconds for a whole minute is more
  // than anyone taps while browsing; a script walking listing ids stops.
  favourite: { binding: "RL_FAVOURITE", scope: "favourite:user", limit: 30, periodSeconds: 60 },
  // Saved searches: creating, renaming, changing the alert and deleting, per user; the
  // unsubscribe link (no sign-in) per address. Its tokens cannot be guessed; the limit only keeps
  // someone from hammering the HMAC check.
  savedSearchWrite: { scope: "saved-search:user", limit: 120, windowSeconds: HOUR },
  unsubscribeAddress: { scope: "unsubscribe:address", limit: 30, windowSeconds: 15 * MINUTE },
  // Chat (docs/decisions/028-live-chat.md): "Send melding" per buyer, and messages per sender
  // over the socket and HTTP together (system messages are not limited). Messages are counted by
  // their ConversationRoom from its own rows, so per conversation, not in D1 (decision 107).
  conversationStart: { scope: "conversation:start", limit: 30, windowSeconds: HOUR },
  messageSend: { scope: "message:send", limit: 60, windowSeconds: MINUTE },
  // The notification test (local mode only): each press writes a system message and pushes badges;
  // a handful a minute is all a person trying the badge out needs.
  testNotification: { scope: "test-notification:user", limit: 10, windowSeconds: MINUTE },
  // Reports (the report dialog; a repeat that updates an open report counts too): far more than an
  // honest user files, few enough that nobody floods the moderators' queue.
  reportUser: { scope: "report:user", limit: 20, windowSeconds: HOUR },
  // Trades (docs/decisions/046-trade-lifecycle.md): new offers per sender, and the answers (accept,
  // reject, withdraw or cancel, confirm the handover) per party.
  tradeOfferCreate: { scope: "trade-offer:create", limit: 20, windowSeconds: HOUR },
  tradeOfferAction: { scope: "trade-offer:action", limit: 120, windowSeconds: HOUR },
  // The give-away queue (docs/decisions/075-giveaway-queue.md): "Jeg vil ha den" per taker (joining
  // again while in the queue counts too), and the queue moves (leave, reserve, release, give) per user.
  giveawayJoin: { scope: "giveaway:join", limit: 30, windowSeconds: HOUR },
  giveawayAction: { scope: "giveaway:action", limit: 120, windowSeconds: HOUR },
  // Reviews (decision 070): one per deal and party anyway; this only stops a script walking ids.
  reviewWrite: { scope: "review:write", limit: 30, windowSeconds: HOUR },
  // Analytics (binding): a browser sends a session, an events flush every 5 s and a few listing-view
  // reports per minute; 600 a minute per address leaves room for a household or a school behind one address.
  analyticsAddress: { binding: "RL_ANALYTICS", scope: "analytics:address", limit: 600, periodSeconds: 60 },
  // New analytics sessions (the signed cookie a consenting browser gets once a day): a household
  // needs a few; more than this from one address is a script minting sessions to inflate views.
  analyticsSession: { scope: "analytics:session", limit: 10, windowSeconds: HOUR },
  // Search (binding; GET /api/search answered by the Worker, not from the edge cache): the results
  // page and the filter sheet's count wait 300 ms after typing stops, so a person makes a few a
  // minute; 120 a minute per address is still generous for a household or school behind one, and
  // stops a scraper paging through every query.
  searchAddress: { binding: "RL_SEARCH", scope: "search:address", limit: 120, periodSeconds: 60 },
  // Payments (docs/decisions/032-payment-sandbox.md), per user: starting a checkout (each creates a
  // Checkout Session or a Vipps payment at the provider), Stripe onboarding and dashboard links, and
  // the result pages' checks, which poll while a payment is pending.
  paymentCheckout: { scope: "payment:checkout", limit: 20, windowSeconds: HOUR },
  paymentConnect: { scope: "payment:connect", limit: 10, windowSeconds: HOUR },
  paymentVerify: { scope: "payment:verify", limit: 300, windowSeconds: HOUR },
  // The checkout's pickup points: one carrier call per lookup, a few per purchase as the buyer
  // switches carrier or fixes the postal code.
  pickupPoints: { scope: "pickup-points:account", limit: 60, windowSeconds: 15 * MINUTE },
  // "Prøv igjen" after a refused booking: one carrier call each; a seller fixes the address a few times at most.
  shipmentRetry: { scope: "shipment-retry:account", limit: 10, windowSeconds: HOUR },
} as const satisfies Record<string, RateRule | BindingRateRule>;

/** The rules counted by the Rate Limiting binding, by name (wrangler.toml `[[ratelimits]]` must match). */
export const BINDING_RATE_RULES: BindingRateRule[] = (Object.values(RATE_RULES) as (RateRule | BindingRateRule)[]).filter(
  (rule): rule is BindingRateRule => "binding" in rule,
);

export const RATE_LIMITED_MESSAGE = "For mange forsøk. Vent litt og prøv igjen.";
