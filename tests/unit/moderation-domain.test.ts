// The moderation rules and texts shared by the Worker and the web (domain/moderation.ts,
// domain/schemas/moderation.ts, the report schema in domain/schemas/content.ts).
import { describe, expect, it } from "vitest";
import {
  ACTIONS_FOR_TARGET,
  actionLabel,
  fallbackTargetTitle,
  paymentCaseTarget,
  REPORT_PRIORITY_LABELS,
  REPORT_STATUS_LABELS,
  reportDialogTitle,
  reasonWithNotes,
  STAFF_REFUSAL_MESSAGES,
  staffRefusal,
  staffRefusalMessage,
  suspensionMessage,
  type StaffAction,
  type StaffRefusal,
  type StaffTarget,
} from "../../domain/moderation";
import type { Role } from "../../domain/roles";
import { REPORT_REASONS, reportSchema } from "../../domain/schemas/content";
import { moderationActionSchema, moderationQuerySchema } from "../../domain/schemas/moderation";

const ID = "0b0c8f6e-2a4d-4c1e-9f7a-1d2e3f4a5b6c";

describe("texts", () => {
  it("the dialog title names the target, 'innhold' for anything else", () => {
    expect(["listing", "message", "user", "profile", undefined, "x", "toString", "constructor"].map(reportDialogTitle)).toEqual([
      "Rapporter annonse",
      "Rapporter melding",
      "Rapporter bruker",
      "Rapporter profil",
      "Rapporter innhold",
      "Rapporter innhold",
      "Rapporter innhold",
      "Rapporter innhold",
    ]);
  });

  it("statuses, priorities and the ten reasons as the spec words them (Haster, not Urgent)", () => {
    expect(Object.values(REPORT_STATUS_LABELS)).toEqual(["Venter", "Vurdert", "Løst", "Avvist"]);
    expect(Object.values(REPORT_PRIORITY_LABELS)).toEqual(["Lav", "Normal", "Høy", "Haster"]);
    expect(REPORT_REASONS).toEqual([
      "Upassende innhold",
      "Spam/reklame",
      "Falsk annonse",
      "Villedende informasjon",
      "Trakassering",
      "Hatefulle ytringer",
      "Ulovlig innhold",
      "Opphavsrett-brudd",
      "Personlig informasjon",
      "Annet",
    ]);
  });

  it("a card without a title shows the type and the first 8 characters of the id", () => {
    expect(fallbackTargetTitle("message", ID)).toBe("Melding 0b0c8f6e");
    expect(fallbackTargetTitle("user", ID)).toBe("Bruker 0b0c8f6e");
    expect(fallbackTargetTitle("valueOf", ID)).toBe("Innhold 0b0c8f6e");
  });

  it("the reason shown to the user joins the report's reason and the notes", () => {
    expect(reasonWithNotes("Spam/reklame", "Gjentatte annonser")).toBe("Spam/reklame: Gjentatte annonser");
    expect(reasonWithNotes("Spam/reklame", null)).toBe("Spam/reklame");
    expect(reasonWithNotes(null, null)).toBeNull();
  });

  it("a suspended user is told until when and why", () => {
    expect(suspensionMessage("2026-03-05T12:00:00.000Z", "Trakassering.")).toBe(
      "Kontoen din er utestengt til 5. mars 2026. Årsak: Trakassering. Du kan ikke legge ut annonser, sende meldinger, foreslå bytter eller kjøpe før da.",
    );
  });

  it("a message can only be removed, warned about or approved; on users hide and delete are suspensions", () => {
    expect(ACTIONS_FOR_TARGET.message).toEqual(["delete", "warn", "approve"]);
    expect(actionLabel("hide", "user")).toBe("Steng ute midlertidig");
    expect(actionLabel("hide", "listing")).toBe("Skjul annonsen");
  });
});

describe("schemas", () => {
  it("a report needs a reason ('Velg en årsak'); priority defaults to normal; extra info is trimmed, empty is null; unknown keys are dropped", () => {
    const none = reportSchema.safeParse({ target_type: "listing", target_id: ID });
    expect(none.success).toBe(false);
    expect(none.error?.issues.find((i) => i.path[0] === "reason")?.message).toBe("Velg en årsak");
    const ok = reportSchema.parse({
      target_type: "listing",
      target_id: ID,
      reason: "Annet",
      description: "   ",
      status: "resolved",
      reporter_id: ID,
    });
    expect(ok).toEqual({ target_type: "listing", target_id: ID, reason: "Annet", description: null, priority: "normal" });
    expect(reportSchema.safeParse({ target_type: "listing", target_id: ID, reason: "Annet", priority: "Urgent" }).success).toBe(false);
    expect(reportSchema.safeParse({ target_type: "listing", target_id: ID, reason: "Annet", description: "x".repeat(2001) }).success).toBe(
      false,
    );
  });

  it("an action must be chosen ('Velg en handling'); notes optional; suspension 1–365 days", () => {
    expect(moderationActionSchema.safeParse({}).error?.issues[0]?.message).toBe("Velg en handling");
    expect(moderationActionSchema.parse({ action: "warn", notes: "" })).toEqual({ action: "warn", notes: null });
    expect(moderationActionSchema.safeParse({ action: "hide", suspension_days: 0 }).success).toBe(false);
    expect(moderationActionSchema.safeParse({ action: "dismiss" }).success).toBe(false);
  });

  it("the dashboard lists pending reports, 50 at a time by default", () => {
    expect(moderationQuerySchema.parse({})).toEqual({ status: "pending", limit: 50, offset: 0 });
    expect(moderationQuerySchema.safeParse({ limit: "500" }).success).toBe(false);
  });
});

describe("who may act on whom (staffRefusal)", () => {
  type Row = [
    actorRole: Role,
    actorSuspended: boolean,
    target: StaffTarget | null,
    onTarget: StaffRefusal | null,
    view: StaffRefusal | null,
  ];
  const user = (role: Role, self = false): StaffTarget => ({ role, self });
  // One row per (actor role, actor suspended, target role, self?): what every action on the target
  // (review, hide, delete, warn, approve, dismiss, unhide) gets, and what reading the dashboard gets.
  const rows: Row[] = [
    // Ordinary users have no staff rights at all.
    ["user", false, user("user"), "not_staff", "not_staff"],
    ["user", false, user("user", true), "not_staff", "not_staff"],
    ["user", true, user("user"), "not_staff", "not_staff"],
    // A moderator acts on ordinary users and content without an owner, never on staff or themselves.
    ["moderator", false, user("user"), null, null],
    ["moderator", false, null, null, null],
    ["moderator", false, user("moderator"), "staff_target", null],
    ["moderator", false, user("admin"), "staff_target", null],
    ["moderator", false, user("moderator", true), "self", null],
    // A suspended moderator has no staff rights, whoever the target is.
    ["moderator", true, user("user"), "suspended", "suspended"],
    ["moderator", true, null, "suspended", "suspended"],
    ["moderator", true, user("admin"), "suspended", "suspended"],
    ["moderator", true, user("moderator", true), "suspended", "suspended"],
    // An admin acts on everyone but themselves.
    ["admin", false, user("user"), null, null],
    ["admin", false, user("moderator"), null, null],
    ["admin", false, user("admin"), null, null],
    ["admin", false, null, null, null],
    ["admin", false, user("admin", true), "self", null],
    // A suspended admin is refused too (and cannot lift their own suspension).
    ["admin", true, user("user"), "suspended", "suspended"],
    ["admin", true, user("admin", true), "suspended", "suspended"],
    ["admin", true, null, "suspended", "suspended"],
  ];
  const onTargetActions: StaffAction[] = ["review", "hide", "delete", "warn", "approve", "dismiss", "unhide"];

  it.each(rows)("%s (suspended: %s) on %o: %s, dashboard: %s", (role, suspended, target, onTarget, view) => {
    for (const action of onTargetActions) expect(staffRefusal({ role, suspended }, action, target), action).toBe(onTarget);
    expect(staffRefusal({ role, suspended }, "view", null)).toBe(view);
  });

  it("changing roles is for admins in good standing only", () => {
    expect(staffRefusal({ role: "admin", suspended: false }, "change_role", null)).toBeNull();
    expect(staffRefusal({ role: "admin", suspended: true }, "change_role", null)).toBe("suspended");
    expect(staffRefusal({ role: "moderator", suspended: false }, "change_role", null)).toBe("not_staff");
    expect(staffRefusal({ role: "user", suspended: false }, "change_role", null)).toBe("not_staff");
  });

  // A payment case (decision 105): the target is the order's two parties. One row per (staff role,
  // suspended, buyer, seller), where "me" is the staff member being a party.
  type Party = Role | "me";
  type CaseRow = [actorRole: Role, actorSuspended: boolean, buyer: Party, seller: Party, refusal: StaffRefusal | null];
  const caseRows: CaseRow[] = [
    ["user", false, "user", "user", "not_staff"],
    ["user", false, "me", "user", "not_staff"],
    // A moderator decides a case between ordinary users only.
    ["moderator", false, "user", "user", null],
    ["moderator", false, "moderator", "user", "staff_target"],
    ["moderator", false, "user", "moderator", "staff_target"],
    ["moderator", false, "user", "admin", "staff_target"],
    ["moderator", false, "admin", "user", "staff_target"],
    ["moderator", false, "me", "user", "self"],
    ["moderator", false, "user", "me", "self"],
    // Being a party comes before the other party's role.
    ["moderator", false, "me", "moderator", "self"],
    ["moderator", true, "user", "user", "suspended"],
    ["moderator", true, "me", "user", "suspended"],
    // An admin decides every case but their own.
    ["admin", false, "user", "user", null],
    ["admin", false, "moderator", "user", null],
    ["admin", false, "user", "moderator", null],
    ["admin", false, "admin", "moderator", null],
    ["admin", false, "me", "user", "self"],
    ["admin", false, "user", "me", "self"],
    ["admin", true, "user", "user", "suspended"],
    ["admin", true, "user", "moderator", "suspended"],
  ];
  it.each(caseRows)("%s (suspended: %s) on a case, buyer %s, seller %s: %s", (role, suspended, buyer, seller, refusal) => {
    const me = "11111111-1111-4111-8111-111111111111";
    const party = (p: Party, id: string) => (p === "me" ? { id: me, role } : { id, role: p });
    const target = paymentCaseTarget(
      me,
      party(buyer, "22222222-2222-4222-8222-222222222222"),
      party(seller, "33333333-3333-4333-8333-333333333333"),
    );
    expect(staffRefusal({ role, suspended }, "decide_payment_case", target)).toBe(refusal);
  });

  it("a refused payment-case decision says so in the words of a case", () => {
    expect(staffRefusalMessage("self", "decide_payment_case")).toBe("Du kan ikke avgjøre en sak du selv er part i.");
    expect(staffRefusalMessage("staff_target", "decide_payment_case")).toBe(
      "Bare en administrator kan avgjøre en sak der kjøperen eller selgeren er moderator eller administrator.",
    );
    expect(staffRefusalMessage("suspended", "decide_payment_case")).toBe(STAFF_REFUSAL_MESSAGES.suspended);
    expect(staffRefusalMessage("self", "review")).toBe(STAFF_REFUSAL_MESSAGES.self);
  });

  it("every refusal has a Norwegian message", () => {
    expect(STAFF_REFUSAL_MESSAGES).toEqual({
      not_staff: "Du har ikke tilgang til dette.",
      suspended: "Kontoen din er utestengt, så du har ingen moderatorrettigheter før utestengingen er over.",
      self: "Du kan ikke moderere deg selv eller ditt eget innhold.",
      staff_target: "Bare en administrator kan moderere moderatorer og administratorer.",
    });
  });
});
