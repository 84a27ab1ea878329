// Every rate limit in one table (docs/decisions/010-rate-limits.md). The Worker enforces them with
// `enforceRateLimit(db, RATE_RULES.x, subject)` / `enforceRateLimits(db, [[rule, subject], …])`
// (worker/lib/rate-limit.ts): an exact sliding window, so a burst across a window edge gets
// no extra attempts. Add the rules of new features here.

export interface RateRule {
  /** Key prefix in the rate_limits table, e.g. "signin:address". Never reuse one for another rule. */
  scope: string;
  /** Requests allowed within any window of `windowSeconds`. */
  limit: number;
  windowSeconds: number;
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
  newsletterAddress: { scope: "newsletter:address", limit: 20, windowSeconds: HOUR },
  newsletterAccount: { scope: "newsletter:account", limit: 5, windowSeconds: HOUR },
  contactAddress: { scope: "contact:address", limit: 10, windowSeconds: HOUR },
  // Signed-in actions, per user.
  upload: { scope: "upload:user", limit: 120, windowSeconds: HOUR },
  listingCreate: { scope: "listing-create:user", limit: 30, windowSeconds: HOUR },
  listingEdit: { scope: "listing-edit:user", limit: 120, windowSeconds: HOUR },
  listingStatus: { scope: "listing-status:user", limit: 120, windowSeconds: HOUR },
  favourite: { scope: "favourite:user", limit: 300, windowSeconds: HOUR },
  // Saved searches: creating, renaming, changing the alert and deleting, per user; the
  // unsubscribe link (no sign-in) per address. Its tokens cannot be guessed; the limit only keeps
  // someone from hammering the HMAC check.
  savedSearchWrite: { scope: "saved-search:user", limit: 120, windowSeconds: HOUR },
  unsubscribeAddress: { scope: "unsubscribe:address", limit: 30, windowSeconds: 15 * MINUTE },
  // Messaging (docs/decisions/028-live-chat.md): "Send melding" per buyer, and messages per sender
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
  // Analytics: a browser sends a session, an events flush every 5 s and a few listing-view reports
  // per minute; 600 a minute per address leaves room for a household or a school behind one address.
  analyticsAddress: { scope: "analytics:address", limit: 600, windowSeconds: MINUTE },
  // New analytics sessions (the signed cookie a consenting browser gets once a day): a household
  // needs a few; more than this from one address is a script minting sessions to inflate views.
  analyticsSession: { scope: "analytics:session", limit: 10, windowSeconds: HOUR },
  // Payments (docs/decisions/032-payment-sandbox.md), per user: starting a checkout (each creates a
  // Checkout Session or a Vipps payment at the provider), Stripe onboarding and dashboard links, and
  // the result pages' checks, which poll while a payment is pending.
  paymentCheckout: { scope: "payment:checkout", limit: 20, windowSeconds: HOUR },
  paymentConnect: { scope: "payment:connect", limit: 10, windowSeconds: HOUR },
  paymentVerify: { scope: "payment:verify", limit: 300, windowSeconds: HOUR },
} as const satisfies Record<string, RateRule>;

export const RATE_LIMITED_MESSAGE = "For mange forsøk. Vent litt og prøv igjen.";
