#!/usr/bin/env node
// Builds and deploys one wrangler environment (docs/deploy.md, decision 136):
//
//   npm run deploy -- staging                       # what CI runs after the D1 migrations
//   npm run deploy -- production
//   npm run deploy:check                            # = --dry-run staging production: builds, uploads nothing
//
// With the Cloudflare Vite plugin the environment is chosen when building (CLOUDFLARE_ENV), not by
// `wrangler deploy --env`: after a plain `vite build`, `wrangler deploy --env staging` deploys the
// top-level (local) configuration without a word. So this script builds with CLOUDFLARE_ENV, checks
// that the built configuration is that environment's (name, APP_ENV, APP_ORIGIN), and only then runs
// `wrangler deploy --env NAME`, which refuses a build made for another environment.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const ENVIRONMENTS = ["staging", "production"];
const bin = (name) => path.join(ROOT, "node_modules", ".bin", name);

function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, env: { ...process.env, ...env }, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  // wrangler lists every module it uploads: leave the table's rows out of the log.
  const output = `${result.stdout}${result.stderr}`
    .split("\n")
    .filter((line) => !/^[│├┌└]/.test(line) || /Total/.test(line))
    .join("\n");
  process.stdout.write(output);
  if (result.status !== 0) throw new Error(`${path.basename(command)} ${args.join(" ")} failed (exit ${result.status})`);
  return output;
}

/** The configuration `wrangler deploy` will use after a build: the Vite plugin's output, via .wrangler/deploy. */
export function builtConfig(root = ROOT) {
  const redirect = JSON.parse(readFileSync(path.join(root, ".wrangler", "deploy", "config.json"), "utf8"));
  return JSON.parse(readFileSync(path.resolve(root, ".wrangler", "deploy", redirect.configPath), "utf8"));
}

/** Why the built configuration is not `environment`'s, or null. */
export function builtConfigProblem(config, environment) {
  if (config.targetEnvironment !== environment)
    return `the build is for ${JSON.stringify(config.targetEnvironment ?? "the top level")}, not ${environment}`;
  if (config.name !== `lekebytte-${environment}`) return `the built Worker is "${config.name}", not "lekebytte-${environment}"`;
  if (config.vars?.APP_ENV !== environment) return `the built APP_ENV is ${JSON.stringify(config.vars?.APP_ENV)}`;
  if (!/^https:\/\//.test(config.vars?.APP_ORIGIN ?? "")) return `the built APP_ORIGIN is ${JSON.stringify(config.vars?.APP_ORIGIN)}`;
  return null;
}

function deploy(environment, dryRun) {
  console.log(`\n▸ ${dryRun ? "Dry run" : "Deploy"}: ${environment}`);
  run("npm", ["run", "build"], { CLOUDFLARE_ENV: environment });
  const problem = builtConfigProblem(builtConfig(), environment);
  if (problem) throw new Error(`Not deploying ${environment}: ${problem}.`);
  run(bin("wrangler"), ["deploy", "--env", environment, ...(dryRun ? ["--dry-run"] : [])]);
}

function main(args) {
  const dryRun = args.includes("--dry-run");
  const environments = args.filter((a) => a !== "--dry-run");
  if (environments.length === 0 || environments.some((e) => !ENVIRONMENTS.includes(e)))
    throw new Error(`usage: node scripts/deploy.mjs [--dry-run] <${ENVIRONMENTS.join("|")}>…`);
  if (!dryRun && environments.length > 1) throw new Error("Deploy one environment at a time.");
  for (const environment of environments) deploy(environment, dryRun);
  console.log(`\n${dryRun ? "Dry run passed" : "Deployed"}: ${environments.join(", ")}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`✗ ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
