// Reports and moderation (docs/product.md "Moderation", "Data", "States", "Validation", "Who may do what", "Server calls", "Error messages", "Limits and timings";
// docs/decisions/050-moderation.md). The rules and texts the Worker, the dashboard and the report
// dialog share.
import { formatDate } from "./format";
import type { Role } from "./roles";

export const REPORT_TARGET_TYPES = ["listing", "message", "user", "profile", "review"] as const;
export type ReportTargetType = (typeof REPORT_TARGET_TYPES)[number];

/** The word in "Rapporter {annonse|melding|bruker|profil|innhold}". */
export const REPORT_TARGET_WORDS: Record<ReportTargetType, string> = {
  listing: "annonse",
  message: "melding",
  user: "bruker",
  profile: "profil",
  review: "vurdering",
};

/** The word for a target type, "innhold" for anything else (own keys only: not "toString" and its kind). */
const targetWord = (type: string | undefined): string =>
  type && Object.hasOwn(REPORT_TARGET_WORDS, type) ? REPORT_TARGET_WORDS[type as ReportTargetType] : "innhold";

/** The report dialog's title for a target type; anything else is "innhold" (docs/product.md "Moderation"). */
export function reportDialogTitle(type: string | undefined): string {
  return `Rapporter ${targetWord(type)}`;
}

export const REPORT_STATUSES = ["pending", "reviewed", "resolved", "dismissed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const REPORT_STATUS_LABELS: Record<ReportStatus, string> = {
  pending: "Venter",
  reviewed: "Vurdert",
  resolved: "Løst",
  dismissed: "Avvist",
};

export const REPORT_PRIORITY_KEYS = ["low", "normal", "high", "urgent"] as const;
export type ReportPriority = (typeof REPORT_PRIORITY_KEYS)[number];

/** "Haster", not the prototype's English "Urgent" (docs/product.md "States"). */
export const REPORT_PRIORITY_LABELS: Record<ReportPriority, string> = {
  low: "Lav",
  normal: "Normal",
  high: "Høy",
  urgent: "Haster",
};

/** The actions "Moderer rapport" offers (docs/product.md "States", "Limits and timings"). Dismissing is its own call. */
export const MODERATION_ACTIONS = ["hide", "delete", "warn", "approve"] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

/** What moderation_actions.action_type may hold: the four actions, a dismissal and an unhide. */
export const MODERATION_ACTION_TYPES = [...MODERATION_ACTIONS, "dismiss", "unhide"] as const;
export type ModerationActionType = (typeof MODERATION_ACTION_TYPES)[number];

/**
 * The actions that make sense for each kind of target. A message has no hidden state (both parties
 * keep the conversation), so it can only be removed; for users and profiles hide and delete are
 * suspensions (SUSPENSION_DEFAULT_DAYS).
 */
export const ACTIONS_FOR_TARGET: Record<ReportTargetType, readonly ModerationAction[]> = {
  listing: ["hide", "delete", "warn", "approve"],
  message: ["delete", "warn", "approve"],
  user: ["hide", "delete", "warn", "approve"],
  profile: ["hide", "delete", "warn", "approve"],
  // A review is hidden (gone from the profile and the average) or left; it has nothing to delete
  // beyond that, and its author may be warned (decision 072).
  review: ["hide", "warn", "approve"],
};

export function isUserTarget(type: ReportTargetType): boolean {
  return type === "user" || type === "profile";
}

/** The dialog's label for each action on each kind of target. */
export function actionLabel(action: ModerationAction, type: ReportTargetType): string {
  if (action === "warn") return "Gi advarsel";
  if (action === "approve") return "Godkjenn (ingen brudd)";
  if (isUserTarget(type)) return action === "hide" ? "Steng ute midlertidig" : "Steng ute";
  if (type === "message") return "Fjern meldingen";
  if (type === "review") return "Skjul vurderingen";
  return action === "hide" ? "Skjul annonsen" : "Slett annonsen";
}

/**
 * A suspension's length when the moderator does not choose one: "hide" a user is a short time out,
 * "delete" a long one. Every suspension has an end date; at most a year.
 */
export const SUSPENSION_DEFAULT_DAYS: Record<"hide" | "delete", number> = { hide: 7, delete: 365 };
export const SUSPENSION_MAX_DAYS = 365;

/** Dashboard page size (docs/product.md "Limits and timings": "Moderation dashboard limit default 50"). */
export const MODERATION_PAGE_SIZE = 50;
export const MODERATION_PAGE_MAX = 100;

export const REPORT_DESCRIPTION_MAX_LENGTH = 2000;
export const MODERATION_NOTES_MAX_LENGTH = 1000;

/** What both parties see instead of a message a moderator removed. */
export const REMOVED_MESSAGE_TEXT = "Meldingen er fjernet av moderator";

/** hidden_reason of an auto-hidden listing (its owner sees it on the listing). */
export const AUTO_HIDDEN_REASON = "Rapportert av flere brukere. Annonsen er skjult til en moderator har sett på saken.";

/** hidden_reason and the other texts a user is shown: the report's reason, then the moderator's note. */
export function reasonWithNotes(reason: string | null, notes: string | null): string | null {
  if (reason && notes) return `${reason}: ${notes}`;
  return reason || notes || null;
}

/** "Annonse 1a2b3c4d" when a target has no title (docs/product.md "Moderation"). */
export function fallbackTargetTitle(type: string, id: string): string {
  const word = targetWord(type);
  return `${word.charAt(0).toUpperCase()}${word.slice(1)} ${id.slice(0, 8)}`;
}

/** What a suspended user is told when they try to post, message, offer a trade or buy. */
export function suspensionMessage(until: string, reason: string | null): string {
  const why = reason ? ` Årsak: ${reason.trim().replace(/[.!?]+$/, "")}.` : "";
  return `Kontoen din er utestengt til ${formatDate(until)}.${why} Du kan ikke legge ut annonser, sende meldinger, foreslå bytter eller kjøpe før da.`;
}

/** Roles that may moderate (docs/product.md "Who may do what": "admin or moderator"); only admins change roles. */
export function isStaffRole(role: string | null | undefined): boolean {
  return role === "moderator" || role === "admin";
}

/**
 * What staff do (docs/decisions/052-moderator-rights.md): read the dashboard, act on a report's
 * target ("Behandle", the four actions, a dismissal), lift a hide or a suspension, change a role.
 */
export type StaffAction = "view" | "review" | ModerationAction | "dismiss" | "unhide" | "change_role" | "decide_payment_case";
/** The person a report's target belongs to (the user, a listing's owner, a message's sender, a review's author). */
export interface StaffTarget {
  role: Role;
  /** The target belongs to the acting staff member. */
  self: boolean;
}
export type StaffRefusal = "not_staff" | "suspended" | "self" | "staff_target";

/**
 * Whether a staff member may do `action` to a target (null = allowed). A suspended user has no staff
 * rights; nobody acts on themselves (not even in their favour: approving or dismissing a report on
 * their own content is refused too); only an admin acts on a moderator or an admin. `target` is
 * null for reading the dashboard, changing roles and content whose owner is gone.
 */
export function staffRefusal(
  actor: { role: Role; suspended: boolean },
  action: StaffAction,
  target: StaffTarget | null,
): StaffRefusal | null {
  if (!isStaffRole(actor.role)) return "not_staff";
  if (actor.suspended) return "suspended";
  if (action === "change_role") return actor.role === "admin" ? null : "not_staff";
  if (action === "view" || !target) return null;
  if (target.self) return "self";
  if (actor.role !== "admin" && isStaffRole(target.role)) return "staff_target";
  return null;
}

/**
 * A payment case's target (decision 105): both parties of the order. The staff member is `self`
 * when they are the buyer or the seller; the target is staff when either party is a moderator or
 * an admin, so only an admin decides such a case.
 */
export function paymentCaseTarget(staffId: string, buyer: { id: string; role: Role }, seller: { id: string; role: Role }): StaffTarget {
  const staffParty = [buyer.role, seller.role].find(isStaffRole);
  return { role: staffParty ?? "user", self: buyer.id === staffId || seller.id === staffId };
}

/** Staff rights in force: a moderator or admin who is not suspended (what every staff-only view checks). */
export function hasStaffRights(actor: { role: Role; suspended: boolean } | null | undefined): boolean {
  return !!actor && staffRefusal(actor, "view", null) === null;
}

/** 403 messages for the refusals (FORBIDDEN). */
export const STAFF_REFUSAL_MESSAGES: Record<StaffRefusal, string> = {
  not_staff: "Du har ikke tilgang til dette.",
  suspended: "Kontoen din er utestengt, så du har ingen moderatorrettigheter før utestengingen er over.",
  self: "Du kan ikke moderere deg selv eller ditt eget innhold.",
  staff_target: "Bare en administrator kan moderere moderatorer og administratorer.",
};

/** The refusals worded for a payment case, where the target is an order's two parties. */
const PAYMENT_CASE_REFUSAL_MESSAGES: Partial<Record<StaffRefusal, string>> = {
  self: "Du kan ikke avgjøre en sak du selv er part i.",
  staff_target: "Bare en administrator kan avgjøre en sak der kjøperen eller selgeren er moderator eller administrator.",
};

/** The 403 text for a refusal of `action` (the dashboard shows the same text instead of the buttons). */
export function staffRefusalMessage(refusal: StaffRefusal, action: StaffAction): string {
  return (action === "decide_payment_case" ? PAYMENT_CASE_REFUSAL_MESSAGES[refusal] : undefined) ?? STAFF_REFUSAL_MESSAGES[refusal];
}

/** What the Worker answers when a report cannot be made (404 when the target is not there or not visible, 403 otherwise). */
export const REPORT_REFUSALS = {
  listingNotFound: "Fant ikke annonsen.",
  ownListing: "Du kan ikke rapportere din egen annonse.",
  messageNotFound: "Fant ikke meldingen.",
  ownMessage: "Du kan ikke rapportere din egen melding.",
  systemMessage: "Meldinger fra Lekebytte kan ikke rapporteres.",
  reviewNotFound: "Fant ikke vurderingen.",
  ownReview: "Du kan ikke rapportere din egen vurdering.",
  userNotFound: "Fant ikke brukeren.",
  self: "Du kan ikke rapportere deg selv.",
} as const;

/** What the Worker answers when a staff decision or role change is refused (the staff rule's own texts are above). */
export const MODERATION_REFUSALS = {
  reportNotFound: "Fant ikke rapporten.", // 404
  alreadyDecided: "Rapporten er allerede behandlet. Oppdater listen.", // 409
  actionNotForTarget: "Denne handlingen passer ikke for denne typen innhold.", // 400
  actionNotForTargetField: "Velg en annen handling",
  daysOnlyForSuspension: "Antall dager gjelder bare utestenging av en bruker.", // 400
  daysOnlyForSuspensionField: "Gjelder bare utestenging",
  targetGone: "Innholdet finnes ikke lenger. Godkjenn eller avvis rapporten.", // 409
  targetNotFound: "Fant ikke innholdet.", // 404
  messageNotRestorable: "En fjernet melding kan ikke hentes tilbake.", // 400
  listingNotHidden: "Annonsen er ikke skjult.", // 409
  reviewNotHidden: "Vurderingen er ikke skjult.", // 409
  userNotSuspended: "Brukeren er ikke utestengt.", // 409
  ownRole: "Du kan ikke endre din egen rolle.", // 409
  noUserWithEmail: "Fant ingen bruker med denne e-postadressen.", // 404
} as const;
