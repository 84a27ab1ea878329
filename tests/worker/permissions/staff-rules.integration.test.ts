// Staff who may not act (docs/decisions/052): every moderation route asked by a suspended moderator
// or admin, by a moderator on a moderator's or an admin's target, and by staff on themselves, with
// the expected status; as in the permission matrix (./run.ts), a refusal changes nothing and says why
// in Norwegian.
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories";
import { perform } from "./run";
import { MODERATION_STAFF_ROWS, STAFF_CASE_NAMES, STAFF_CASES, type StaffCase } from "./staff-rows";
import { suspend } from "./world";

/** A staff case: the staff member (suspended or not) and the owner of the row's objects (themselves or another). */
async function runStaffCase(row: (typeof MODERATION_STAFF_ROWS)[number], name: StaffCase) {
  const caseStart = new Date().toISOString();
  const spec = STAFF_CASES[name];
  const actor = await createUser({ role: spec.actor });
  if (spec.suspended) await suspend(actor.id);
  const owner = spec.owner === "self" ? actor : await createUser({ role: spec.owner });
  return perform(row, row.expected[name], caseStart, owner, actor);
}

describe("staff rules (decision 052)", () => {
  it.each(MODERATION_STAFF_ROWS.map((row) => [`${row.route} (${row.variant})`, row] as const))("%s", async (_name, row) => {
    const got = {} as Record<StaffCase, number>;
    const changes: string[] = [];
    const messages: string[] = [];
    for (const name of STAFF_CASE_NAMES) {
      const { status, changed, unreadable } = await runStaffCase(row, name);
      got[name] = status;
      if (changed) changes.push(`${name} (${status}): ${changed}`);
      if (unreadable) messages.push(`${name}: ${unreadable}`);
    }
    const line = (e: Record<StaffCase, number>) => STAFF_CASE_NAMES.map((name) => `${name} ${e[name]}`).join(", ");
    expect(line(got), "status per staff case").toBe(line(row.expected));
    expect(changes, "a refusal changed stored state").toEqual([]);
    expect(messages, "every refusal says why in Norwegian").toEqual([]);
  });
});
