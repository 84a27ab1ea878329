#!/usr/bin/env node
// `npm run test:e2e`: start the app exactly as `npm start` does, on a clean state with the demo data,
// run the Playwright specs against it, stop it, and exit with Playwright's exit code.
//
//   npm run test:e2e                       # everything
//   npm run test:e2e -- --grep "404"       # arguments go to `playwright test`
//   E2E_BASE_URL=http://localhost:8787 npm run test:e2e   # use a server that is already running
//   E2E_SANDBOX_PORT=8855                  # the payment sandbox's port (default E2E_PORT + 30)
//
// The app runs in its own process group (wrangler starts workerd and more below it), and the whole
// group is stopped afterwards, whatever happened. Only that group is ever signalled.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureChromium } from "./chromium.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.E2E_PORT ?? 8799);
const STATE_DIR = ".e2e/state";
const LOG_FILE = path.join(root, ".e2e", "server.log");
const READY_TIMEOUT_MS = Number(process.env.E2E_READY_TIMEOUT_MS ?? 180_000);
const playwrightArgs = process.argv.slice(2);

const log = (message) => console.log(`[e2e] ${message}`);

let server = null;
let stopping = null;

async function main() {
  // Before anything starts: Debian's Chromium, installed when missing and possible, else one line.
  const browser = await ensureChromium();
  if (browser.error) {
    console.error(browser.error);
    return 1;
  }
  process.env.CHROMIUM_PATH = browser.path;

  const external = process.env.E2E_BASE_URL;
  if (external) {
    log(`using the running app at ${external} (E2E_BASE_URL is set)`);
    return runPlaywright(external);
  }

  if (await portInUse(PORT)) {
    throw new Error(`port ${PORT} is already in use; stop that server or set E2E_BASE_URL to test it`);
  }

  // Every run starts clean: migrations and the demo data are applied by the start script.
  rmSync(path.join(root, STATE_DIR), { recursive: true, force: true });
  mkdirSync(path.dirname(LOG_FILE), { recursive: true });
  const baseUrl = `http://localhost:${PORT}`;
  const started = Date.now();
  log(`starting the app (node scripts/start.mjs, PORT=${PORT}, STATE_DIR=${STATE_DIR}); log: ${path.relative(root, LOG_FILE)}`);
  server = startServer();

  try {
    await waitUntilReady(`${baseUrl}/api/home`);
  } catch (error) {
    printServerLog();
    throw error;
  }
  log(`app ready at ${baseUrl} after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const code = await runPlaywright(baseUrl);
  if (code !== 0) printServerLog(40);
  return code;
}

function startServer() {
  const out = createWriteStream(LOG_FILE);
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    // Its own process group, so the whole tree (wrangler, workerd, esbuild) can be stopped together.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(PORT),
      STATE_DIR,
      // Payments always go to the offline sandbox in e2e, whatever keys .dev.vars holds.
      PAYMENT_SANDBOX: "1",
      // The tests sign up some sixty accounts: their passwords are hashed at the test cost.
      PASSWORD_HASH_COST: "low",
      PAYMENT_SANDBOX_PORT: process.env.E2E_SANDBOX_PORT ?? process.env.PAYMENT_SANDBOX_PORT ?? String(PORT + 30),
      NO_COLOR: "1",
      FORCE_COLOR: "0",
      // Offline: no Request.cf download from workers.cloudflare.com (miniflare) and no telemetry.
      CLOUDFLARE_CF_FETCH_ENABLED: process.env.CLOUDFLARE_CF_FETCH_ENABLED ?? "false",
      WRANGLER_SEND_METRICS: process.env.WRANGLER_SEND_METRICS ?? "false",
    },
  });
  child.stdout.pipe(out, { end: false });
  child.stderr.pipe(out, { end: false });
  child.exitPromise = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  child.exitPromise.then(({ code, signal }) => {
    if (!stopping) log(`the app exited early (code ${code}, signal ${signal})`);
    out.end();
  });
  return child;
}

async function waitUntilReady(url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let exited = null;
  server.exitPromise.then((result) => (exited = result));
  let lastError = "";
  while (Date.now() < deadline) {
    if (exited) throw new Error(`the app stopped before it was ready (code ${exited.code}, signal ${exited.signal})`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.status === 200) return;
      lastError = `HTTP ${res.status}`;
    } catch (error) {
      lastError = error.cause?.code ?? error.message;
    }
    await sleep(500);
  }
  throw new Error(`the app did not answer 200 on ${url} within ${READY_TIMEOUT_MS / 1000} s (last: ${lastError})`);
}

function runPlaywright(baseUrl) {
  const require = createRequire(import.meta.url);
  const cli = require.resolve("@playwright/test/cli");
  log(`playwright test ${playwrightArgs.join(" ")}`.trim());
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, "test", ...playwrightArgs], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, E2E_BASE_URL: baseUrl },
    });
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.once("error", (error) => {
      console.error(error);
      resolve(1);
    });
  });
}

/**
 * SIGTERM to the app's process group (the start script forwards it to wrangler), then SIGKILL after
 * 10 s to whatever is left of the tree. The start script runs wrangler in a process group of its
 * own, so the tree (every descendant and its process group) is recorded before anything is signalled:
 * once the start script exits, its children are re-parented and could no longer be found.
 */
function stopServer() {
  if (!server || stopping) return stopping ?? Promise.resolve();
  const pgid = server.pid;
  stopping = (async () => {
    const tree = descendants(pgid);
    const groups = new Set([pgid, ...tree.map((p) => p.pgid)]);
    const pids = new Set(tree.map((p) => p.pid));
    // Zombies do not count: they are gone, only not yet reaped.
    const alive = () => processes().some((p) => p.state !== "Z" && (groups.has(p.pgid) || pids.has(p.pid)));
    if (!alive()) return;
    log(`stopping the app (process group ${pgid}${groups.size > 1 ? ` and ${[...groups].filter((g) => g !== pgid).join(", ")}` : ""})`);
    signalGroup(pgid, "SIGTERM");
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && alive()) await sleep(200);
    if (alive()) {
      log("still running after 10 s; SIGKILL");
      for (const group of groups) signalGroup(group, "SIGKILL");
      for (const p of tree) signalPid(p.pid, "SIGKILL");
      await sleep(300);
    }
  })();
  return stopping;
}

/** Every process on the machine with its parent, process group and state, read from /proc (Linux). */
function processes() {
  const procs = [];
  let entries = [];
  try {
    entries = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // pid (comm) state ppid pgrp …; comm may contain spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(name), state: fields[0], ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // exited meanwhile
    }
  }
  return procs;
}

/** Every process below `rootPid`. */
function descendants(rootPid) {
  const procs = processes();
  const found = [];
  const queue = [rootPid];
  while (queue.length) {
    const parent = queue.shift();
    for (const p of procs) {
      if (p.ppid === parent) {
        found.push(p);
        queue.push(p.pid);
      }
    }
  }
  return found;
}

function signalPid(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch (error) {
    if (error.code !== "ESRCH") throw error;
  }
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if (error.code !== "ESRCH") throw error;
  }
}

function portInUse(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** The end of the app's log, without the request lines of requests that went well (noise here). */
function printServerLog(lines = 200) {
  if (!existsSync(LOG_FILE)) return;
  const text = readFileSync(LOG_FILE, "utf8")
    .trimEnd()
    .split("\n")
    // wrangler's own line and the Worker's JSON line (docs/decisions/133-request-logs.md) of each request that succeeded.
    .filter((line) => !/^\[wrangler:info\] [A-Z]+ \S+ [23]\d\d /.test(line) && !/^\{"type":"request",.*"status":[123]\d\d,/.test(line));
  console.log(
    `[e2e] ---- ${path.relative(root, LOG_FILE)}: last ${Math.min(lines, text.length)} lines (successful requests left out) ----`,
  );
  console.log(text.slice(-lines).join("\n"));
  console.log("[e2e] ----");
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    stopServer().finally(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`[e2e] ${error.message}`);
  exitCode = 1;
} finally {
  await stopServer();
}
process.exit(exitCode);
