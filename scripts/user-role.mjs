#!/usr/bin/env node
// npm run user:role -- <email> <user|moderator|admin> [--env staging|production]
// Sets profiles.role for the user with that e-mail in the local D1, or in the D1 of a deployed
// environment (wrangler.toml [env.*], docs/deploy.md) with --env.
import { spawnSync } from "node:child_process";

const args = process.argv.slice(2);
const envAt = args.indexOf("--env");
const environment = envAt >= 0 ? args[envAt + 1] : null;
const [email, role] = args.filter((a, i) => !a.startsWith("--") && (envAt < 0 || i !== envAt + 1));
const ROLES = ["user", "moderator", "admin"];

if (
  !email ||
  !role ||
  !ROLES.includes(role) ||
  args.includes("--remote") ||
  (envAt >= 0 && !["staging", "production"].includes(environment))
) {
  console.error("Bruk: npm run user:role -- <e-post> <user|moderator|admin> [--env staging|production]");
  process.exit(2);
}
// The CLI cannot bind parameters, so only plain e-mail addresses are accepted (no quotes possible).
if (!/^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$/i.test(email)) {
  console.error(`Ugyldig e-postadresse: ${email}`);
  process.exit(2);
}
const sql = `UPDATE profiles SET role = '${role}', updated_at = strftime('%Y-%m-%dT%H:%M:%fZ','now') WHERE user_id = (SELECT id FROM users WHERE email = '${email.toLowerCase()}' AND deleted_at IS NULL) RETURNING user_id`;
// wrangler.toml itself, never the configuration a build left for `wrangler deploy` (scripts/deploy.mjs).
const where = environment ? ["--remote", "--env", environment] : ["--local", "--persist-to", process.env.STATE_DIR ?? ".wrangler/state"];
const res = spawnSync("wrangler", ["d1", "execute", "DB", "-c", "wrangler.toml", ...where, "--json", "--command", sql], {
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
