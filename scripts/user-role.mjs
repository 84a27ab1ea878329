#!/usr/bin/env node
// npm run user:role -- <email> <user|moderator|admin> [--remote]
// Sets profiles.role for the user with that e-mail in the local D1 (or the remote one with --remote).
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const remote = args.includes("--remote");
const [email, role] = args.filter((a) => !a.startsWith("--"));
const ROLES = ["user", "moderator", "admin"];

if (!email || !role || !ROLES.includes(role)) {
  console.error("Bruk: npm run user:role -- <e-post> <user|moderator|admin> [--remote]");
  process.exit(2);
}
// The CLI cannot bind parameters, so only plain e-mail addresses are accepted (no quotes possible).
if (!/^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i.test(email)) {
  console.error(`Ugyldig e-postadresse: ${email}`);
  process.exit(2);
}
const sql = `UPDATE profiles SET role = '${role}', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE user_id = (SELECT id FROM users WHERE email = '${email.toLowerCase()}' AND deleted_at IS NULL) RETURNING user_id`;
const where = remote ? ["--remote"] : ["--local", "--persist-to", process.env.STATE_DIR ?? ".wrangler/state"];
const res = spawnSync("wrangler", ["d1", "execute", "DB", ...where, "--json", "--command", sql], {
  encoding: "utf8",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" },
});
if (res.status !== 0) {
  console.error(res.stderr || res.stdout);
  process.exit(res.status ?? 1);
}
const out = JSON.parse(res.stdout);
// Local D1 reports no change count, so the UPDATE returns the rows it changed.
if ((out?.[0]?.results ?? []).length === 0) {
  console.error(`Fant ingen bruker med e-post ${email}`);
  process.exit(1);
}
console.log(`${email} har nå rollen ${role}`);
