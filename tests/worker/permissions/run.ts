// The permission matrix (docs/security.md "How it is tested"; docs/decisions/060): every route the
// Worker registers (read from the Hono app itself, `app.routes`), every page of the route table
// (domain/routes.ts PAGE_ROUTES) and both WebSocket upgrades, each × {visitor, other user,
// owner/participant, moderator, admin, suspended user}, with the expected status. Real requests
// through the Worker's fetch with a real session per role, and real ids per role. For every refusal
// (4xx) the test also proves that nothing changed: every D1 table's rows and every R2 object are the
// same before and after (../support/state.ts).
//
// This module asks the rows; the test files beside it walk the route table (./rows/) by feature
// group, and coverage.integration.test.ts checks that every route has a row.
//
// Roles:
// - visitor: no session.
// - other: a signed-in user who is not the owner (nor a participant) of the row's object.
// - owner: the owner or participant of the row's object; on routes without an object (create, list,
//   own profile), simply a signed-in user acting for themself.
// - moderator, admin: staff who are not the owner.
// - suspended: the owner, with an active suspension (docs/decisions/051-suspensions.md).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { generateSitemap } from "../../../worker/features/seo/sitemap";
import { createUser, signedInClient, type TestUser, testPasswordHash } from "../../factories";
import { allowConsoleError } from "../support/console-guard";
import { Client, errorOf, isNorwegianMessage } from "../support/http";
import { mirrored, upgrade } from "../support/live";
import { stateChanges, storedState } from "../support/state";
import { BUSY, type Expected, PASSWORD, ROLES, type Role, type Row } from "./matrix";
import { connectOwner, suspend, World } from "./world";

/** A user with PASSWORD, for the rows that sign in (made by createSignInUser in a file's beforeAll). */
export let signInUser: TestUser;
let ipCounter = 0;

/** The user the sign-in rows sign in as; call in beforeAll (every test file starts with an empty D1). */
export async function createSignInUser(): Promise<void> {
  signInUser = await createUser({ password: PASSWORD });
}

/** sitemap.xml as an index of two files (sitemap-1.xml, sitemap-2.xml). */
export async function sitemapInTwoFiles() {
  const { urls } = await generateSitemap(env, "http://localhost");
  await generateSitemap(env, "http://localhost", Math.ceil(urls / 2));
}

async function runCase(row: Row, role: Role): Promise<{ status: number; changed: string | null; unreadable: string | null }> {
  const caseStart = new Date().toISOString();
  const owner = await createUser();
  if (row.ownerPassword) {
    await env.DB.prepare("UPDATE users SET password_hash = ?2 WHERE id = ?1")
      .bind(owner.id, await testPasswordHash(PASSWORD))
      .run();
  }
  if (row.ownerConnected) await connectOwner(owner.id);
  if (role === "suspended") await suspend(owner.id);
  const actor =
    role === "visitor"
      ? null
      : role === "owner" || role === "suspended"
        ? owner
        : await createUser({ role: role === "other" ? "user" : role });
  return perform(row, row.expected[role], caseStart, owner, actor);
}

/** One request of a row as `actor` (null: a visitor) on `owner`'s objects; a refusal must change nothing. */
export async function perform(
  row: Pick<Row, "request">,
  expected: number,
  caseStart: string,
  owner: TestUser,
  actor: TestUser | null,
): Promise<{ status: number; changed: string | null; unreadable: string | null }> {
  ipCounter += 1;
  const world = new World(owner, actor, `10.15.${Math.floor(ipCounter / 250)}.${ipCounter % 250}`);
  const client = actor ? await signedInClient(actor.id) : new Client();
  const req = await row.request(world);
  // Only a refusal must leave everything as it was; successes are not snapshotted (it is costly).
  const before = expected >= 400 ? await storedState(caseStart) : null;
  let status: number;
  let unreadable: string | null = null;
  if (req.ws) {
    const { res, socket } = await upgrade(client, req.path);
    status = res.status;
    if (!socket) await res.text();
    socket?.close();
  } else {
    const headers = new Headers(req.headers);
    for (const [name, value] of Object.entries(req.cookies ?? {})) client.cookies.set(name, value);
    // A redirect is the route's answer (the plain forms answer 303), not something to follow.
    const res = await client.request(req.path, {
      method: req.method ?? "GET",
      json: req.json,
      body: req.body,
      headers,
      redirect: "manual",
    });
    status = res.status;
    if (status >= 400 && res.headers.get("Content-Type")?.includes("application/json")) {
      const { message } = await errorOf(res);
      if (!isNorwegianMessage(message)) unreadable = `${status} ${JSON.stringify(message)}`;
    } else {
      await res.arrayBuffer();
    }
  }
  let changed: string | null = null;
  if (before) {
    const diffs = stateChanges(before, await storedState(caseStart));
    if (diffs.length) changed = diffs.join(", ");
  }
  await settle(caseStart);
  return { status, changed, unreadable };
}

/**
 * A message's recipient who has never been online is mailed by the ConversationRoom's alarm a moment
 * later, and the alarm mirrors the room's messages to D1 (decision 107); run both now for the case's
 * conversations, so neither can land inside a later refusal's window.
 */
async function settle(since: string): Promise<void> {
  const { results } = await env.DB.prepare("SELECT id FROM conversations WHERE updated_at >= ?1 OR created_at >= ?1")
    .bind(since)
    .all<{ id: string }>();
  for (const { id } of results) {
    await mirrored(id);
    await runDurableObjectAlarm(env.CONVERSATION_ROOM.get(env.CONVERSATION_ROOM.idFromName(id)));
  }
}

/** Refusals first: a success's after-effects (waitUntil, queues) cannot fall into a refusal's window. */
const roleOrder = (expected: Expected) => [...ROLES].sort((a, b) => Number(expected[a] < 400) - Number(expected[b] < 400));

/** One test per row: its status for every role, and for every refusal nothing changed and a Norwegian reason. */
export function walkRows(rows: Row[]): void {
  it.each(rows.map((row) => [`${row.route}${row.variant ? ` (${row.variant})` : ""}`, row] as const))("%s", async (_name, row) => {
    if (row.allowErrors) allowConsoleError(...row.allowErrors);
    const got = {} as Record<Role, number>;
    const changes: string[] = [];
    const messages: string[] = [];
    for (const role of roleOrder(row.expected)) {
      const { status, changed, unreadable } = await runCase(row, role);
      got[role] = status;
      if (changed) changes.push(`${role} (${status}): ${changed}`);
      if (unreadable) messages.push(`${role}: ${unreadable}`);
    }
    const line = (e: Expected) => ROLES.map((role) => `${role} ${e[role]}`).join(", ");
    expect(line(got), "status per role").toBe(line(row.expected));
    expect(changes, "a refusal changed stored state").toEqual([]);
    expect(messages, "every refusal of the API says why in Norwegian").toEqual([]);
    expect(Object.values(got)).not.toContain(BUSY);
  });
}
