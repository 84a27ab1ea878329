#!/usr/bin/env node
// `npm start`: build the app, prepare .dev.vars, apply D1 migrations locally, load demo data on the
// first run, then serve everything with `wrangler dev` (local D1/R2/DO/Queues) on http://localhost:$PORT:
// the Worker `vite build` bundled (the one `npm run deploy` uploads), not a second bundle of the
// sources (decision 146). A change to the code shows after the next `npm start` (or `npm run dev`).
//
//   PORT=8787              port to serve on
//   STATE_DIR=.wrangler/state   wrangler --persist-to directory (`npm run reset` deletes it)
//   SKIP_BUILD=1           reuse the existing dist/ (no `vite build`)
//   START_TIMEOUT=180      seconds to wait for the server to answer
//   BIND_ADDRESS=127.0.0.1 address to listen on (0.0.0.0 to try the app from a phone on your network)
//   PAYMENT_SANDBOX_PORT   port of the offline payment sandbox (default PORT + 30)
//   PAYMENT_SANDBOX=1      use the sandbox even when .dev.vars has provider keys (the e2e runner does);
//                          PAYMENT_SANDBOX=0 never starts it
//   EDGE_CACHE=off         serve without the edge cache (docs/decisions/101-edge-cache.md); bench:load
//                          measures D1's load without it this way
//   PASSWORD_HASH_COST=low new passwords hashed at the test cost (the e2e runner's sign-ups; local
//                          mode only, worker/features/auth/password.ts)
//
// Payments: for each provider without keys in .dev.vars (Stripe: STRIPE_SECRET_KEY; Vipps: all
// VIPPS_* credentials) the offline payment sandbox (scripts/payment-sandbox) is started as its own
// process, and the Worker gets the sandbox's base URL and local-only keys as --var. With real test
// keys in .dev.vars the Worker talks to the providers' test environments instead. The carriers (Bring:
// BRING_API_UID, BRING_API_KEY, BRING_CUSTOMER_NUMBER; Helthjem: HELTHJEM_CLIENT_ID,
// HELTHJEM_CLIENT_SECRET, HELTHJEM_SHOP_ID) are more such providers in the same sandbox; their tester
// page, where a parcel is moved on, is printed with the URLs (decisions 147 and 154).
//
// Everything runs offline and non-interactively. Ctrl-C / SIGTERM is forwarded to the child's whole
// process group (wrangler and its workerd), so nothing keeps running; we exit with wrangler's code.
import { spawn } from "node:child_process";
import { copyFileSync, existsSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { formatDemoLogins } from "./demo-accounts.mjs";
import { BUILT_WORKER_CONFIG, ROOT, binPath, port, seedMarker, shownPath, stateDir, toolEnv } from "./local-env.mjs";
import { sandboxBindings, sandboxPort, sandboxProviders } from "./payment-sandbox/dev-keys.mjs";

const PORT = port();
const STATE_DIR = stateDir();
// Bind the IPv4 loopback: http://127.0.0.1:PORT works, and http://localhost:PORT works too (browsers,
// curl and Node try 127.0.0.1 when ::1 refuses). Nothing is exposed beyond this machine.
const HOST = process.env.BIND_ADDRESS || "127.0.0.1";
const URL_SHOWN = `http://localhost:${PORT}`;
const TIMEOUT_S = Number(process.env.START_TIMEOUT || 180);

/** The child currently running (build, migrate, seed or the server); signals go to its process group. */
let current = null;
/** The payment sandbox, when it runs beside the server. */
let sandbox = null;
let stopping = false;

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code, text) => (color ? `\x1b[${code}m${text}\x1b[0m` : text);

function step(msg) {
  console.log(`${paint(36, "▸")} ${msg}`);
}

function seconds(since) {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/**
 * Run a tool in its own process group; resolves with its exit code (or rejects on spawn failure).
 * `dropLine` leaves matching lines of its standard output out of ours.
 */
function run(cmd, args, { env = toolEnv(), capture = false, dropLine = null } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env,
      detached: true, // own process group, so a signal reaches wrangler *and* workerd
      stdio: ["ignore", capture || dropLine ? "pipe" : "inherit", capture ? "pipe" : "inherit"],
    });
    // Decoded as whole streams: a letter of two bytes split between two chunks stays one letter.
    child.stdout?.setEncoding("utf8");
    child.stderr?.setEncoding("utf8");
    if (dropLine && !capture) {
      let partial = "";
      child.stdout.on("data", (d) => {
        const lines = (partial + d).split("\n");
        partial = lines.pop() ?? "";
        const kept = lines.filter((line) => !dropLine(line));
        if (kept.length > 0) process.stdout.write(`${kept.join("\n")}\n`);
      });
      child.stdout.on("end", () => partial && !dropLine(partial) && process.stdout.write(partial));
    }
    current = child;
    guard(child.pid);
    let output = "";
    if (capture) {
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
    }
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (current === child) current = null;
      resolve({ code: code ?? (signal ? 128 + (os.constants.signals[signal] ?? 1) : 1), output, signal });
    });
  });
}

function killGroup(child, signal) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

function onSignal(signal) {
  if (stopping) {
    // Second Ctrl-C: stop hard.
    killGroup(current, "SIGKILL");
    return;
  }
  stopping = true;
  const sandboxChild = sandbox;
  killGroup(sandboxChild, signal);
  if (!current) process.exit(128 + (os.constants.signals[signal] ?? 2));
  console.log(`\nStopper Lekebytte (${signal}) …`);
  const child = current;
  killGroup(child, signal);
  // workerd normally exits with wrangler; make sure nothing lingers.
  setTimeout(() => {
    killGroup(child, "SIGKILL");
    killGroup(sandboxChild, "SIGKILL");
  }, 10_000).unref();
}
process.on("SIGINT", () => onSignal("SIGINT"));
process.on("SIGTERM", () => onSignal("SIGTERM"));
process.on("SIGHUP", () => onSignal("SIGHUP"));

// `npm start` runs us under `sh -c`; when npm is stopped, sh may die without passing the signal on.
// If our parent goes away, stop as if we had been told to.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) onSignal("SIGTERM");
}, 1000).unref();

/**
 * A child runs in its own process group, so a SIGKILL to *our* group would not reach it. A tiny
 * detached watchdog stops the child's group if this process disappears, and exits as soon as the
 * group is gone.
 */
function guard(childPgid) {
  const code = `
    const [me, group] = process.argv.slice(1).map(Number);
    const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === "EPERM"; } };
    const timer = setInterval(() => {
      if (!alive(-group)) process.exit(0);
      if (!alive(me)) {
        clearInterval(timer);
        try { process.kill(-group, "SIGTERM"); } catch {}
        setTimeout(() => { try { process.kill(-group, "SIGKILL"); } catch {} process.exit(0); }, 8000);
      }
    }, 1000);`;
  try {
    spawn(process.execPath, ["-e", code, String(process.pid), String(childPgid)], { detached: true, stdio: "ignore" }).unref();
  } catch {
    // best effort
  }
}

async function must(label, promise) {
  const { code, output } = await promise;
  if (stopping) process.exit(code || 130);
  if (code !== 0) {
    if (output) process.stderr.write(output);
    console.error(`\n✗ ${label} feilet (kode ${code}).`);
    process.exit(code || 1);
  }
}

/** True when nothing listens on host:port yet (another dev server there would answer our readiness check). */
function portFree(host, p) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(p, host, () => srv.close(() => resolve(true)));
  });
}

async function waitForHttp(url, deadline, isAlive) {
  while (Date.now() < deadline) {
    if (!isAlive()) return false;
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(3000), redirect: "manual" });
      await res.arrayBuffer().catch(() => undefined);
      return true; // any HTTP answer means the server is up
    } catch {
      await new Promise((r) => setTimeout(r, 300));
    }
  }
  return false;
}

/** KEY="value" lines of .dev.vars (dotenv style; enough to see whether provider keys are set). */
function readDevVars(file) {
  if (!existsSync(file)) return {};
  const vars = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Z0-9_]+)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    vars[m[1]] = m[2].replace(/^"(.*)"$/, "$1").replace(/^'(.*)'$/, "$1");
  }
  return vars;
}

/** Start the payment sandbox in its own process group and wait until it answers. */
async function startSandbox(sbPort) {
  const child = spawn(binPath("tsx"), [path.join(ROOT, "scripts/payment-sandbox/main.ts")], {
    cwd: ROOT,
    env: toolEnv({
      PAYMENT_SANDBOX_PORT: String(sbPort),
      PAYMENT_SANDBOX_APP_URL: `http://${HOST === "0.0.0.0" ? "127.0.0.1" : HOST}:${PORT}`,
      PAYMENT_SANDBOX_PUBLIC_URL: `http://localhost:${sbPort}`,
      // Vipps Login sends the browser back only to the app's registered page (docs/payments.md).
      PAYMENT_SANDBOX_LOGIN_REDIRECT_URIS: `${URL_SHOWN}/auth/vipps`,
      // Accounts and payments live with the rest of the local state (npm run reset deletes them too).
      PAYMENT_SANDBOX_STATE: path.join(STATE_DIR, "payment-sandbox.json"),
    }),
    detached: true,
    stdio: ["ignore", "inherit", "inherit"],
  });
  sandbox = child;
  guard(child.pid);
  let exited = false;
  child.on("exit", (code) => {
    exited = true;
    if (sandbox === child) sandbox = null;
    if (!stopping) console.error(`✗ Betalingssandkassen stoppet (kode ${code}).`);
  });
  const up = await waitForHttp(`http://127.0.0.1:${sbPort}/__sandbox/health`, Date.now() + 30_000, () => !exited && !stopping);
  if (!up) {
    killGroup(child, "SIGTERM");
    throw new Error(`Betalingssandkassen svarte ikke på port ${sbPort}.`);
  }
}

async function main() {
  const t0 = performance.now();
  console.log(`Lekebytte – lokal oppstart (port ${PORT}, data i ${shownPath(STATE_DIR)})`);
  if (!(await portFree(HOST, PORT))) {
    console.error(`✗ Port ${PORT} er allerede i bruk. Stopp den andre serveren, eller velg en annen port: PORT=8788 npm start`);
    process.exit(1);
  }

  // (a) local secrets (first, so the build and the server see the same .dev.vars)
  const devVars = path.join(ROOT, ".dev.vars");
  if (!existsSync(devVars) && existsSync(path.join(ROOT, ".dev.vars.example"))) {
    copyFileSync(path.join(ROOT, ".dev.vars.example"), devVars);
    step("Opprettet .dev.vars fra .dev.vars.example (bare for lokal utvikling)");
  }

  // (b) the build: the SPA and the Worker
  if (process.env.SKIP_BUILD === "1") {
    step("Hopper over bygg (SKIP_BUILD=1)");
    if (!existsSync(path.join(ROOT, "dist/client/index.html")) || !existsSync(BUILT_WORKER_CONFIG))
      throw new Error("Fant ikke noe bygg i dist/ – kjør uten SKIP_BUILD=1.");
  } else {
    const t = performance.now();
    step("Bygger nettsiden (vite build) …");
    await must("vite build", run(binPath("vite"), ["build", "--logLevel", "warn"]));
    step(`Bygget på ${seconds(t)}`);
  }
  // A build for a deployed environment (`npm run deploy -- staging` leaves one) has its name, its
  // bindings' ids and its variables: not this local server's.
  const built = JSON.parse(readFileSync(BUILT_WORKER_CONFIG, "utf8"));
  if (built.targetEnvironment) throw new Error(`Bygget i dist/ er for miljøet «${built.targetEnvironment}» – kjør uten SKIP_BUILD=1.`);
  // wrangler reads the secrets beside the configuration it serves: the build copied .dev.vars there,
  // and this keeps the copy current when .dev.vars changed after the build.
  if (existsSync(devVars)) copyFileSync(devVars, path.join(path.dirname(BUILT_WORKER_CONFIG), ".dev.vars"));

  // (c) database schema
  {
    const t = performance.now();
    step("Oppdaterer lokal database (D1-migreringer) …");
    await must("D1-migreringer", run(binPath("tsx"), [path.join(ROOT, "scripts/migrate.ts")], { capture: true }));
    step(`Database klar på ${seconds(t)}`);
  }

  // (d) demo data, first run only (the seed itself also checks that the users table is empty)
  if (!existsSync(seedMarker())) {
    const t = performance.now();
    step("Første oppstart: laster demodata …");
    await must("demodata", run(binPath("tsx"), [path.join(ROOT, "scripts/seed.ts")]));
    step(`Demodata klar på ${seconds(t)}`);
  } else {
    step("Demodata er allerede lastet (npm run reset for å starte på nytt)");
  }

  // (e) the payment sandbox, for providers without keys
  const providers = sandboxProviders(readDevVars(devVars), process.env.PAYMENT_SANDBOX);
  const paymentVars = [];
  let sandboxUrl = null;
  if (providers.stripe || providers.vipps || providers.bring || providers.helthjem) {
    const sbPort = sandboxPort(PORT);
    if (!(await portFree("127.0.0.1", sbPort))) {
      console.error(`✗ Port ${sbPort} (betalingssandkassen) er i bruk. Velg en annen med PAYMENT_SANDBOX_PORT.`);
      process.exit(1);
    }
    step(
      `Starter betalingssandkassen (${[providers.stripe && "Stripe", providers.vipps && "Vipps", providers.bring && "Posten", providers.helthjem && "Helthjem"].filter(Boolean).join(", ")}) på port ${sbPort} …`,
    );
    await startSandbox(sbPort);
    sandboxUrl = `http://localhost:${sbPort}`;
    const base = `http://127.0.0.1:${sbPort}`;
    const sandboxVars = sandboxBindings(providers, base);
    for (const [k, v] of Object.entries(sandboxVars)) paymentVars.push("--var", `${k}:${v}`);
  } else {
    step("Betaling: bruker nøklene i .dev.vars (ingen sandkasse)");
  }

  // (f) the server
  step("Starter wrangler dev …");
  const tDev = performance.now();
  const server = run(
    binPath("wrangler"),
    [
      "dev",
      "-c",
      BUILT_WORKER_CONFIG,
      "--local",
      "--port",
      String(PORT),
      "--ip",
      HOST,
      "--persist-to",
      STATE_DIR,
      "--show-interactive-dev-session=false",
      "--var",
      `APP_ORIGIN:${URL_SHOWN}`,
      // wrangler.toml defaults to production; this server is always the local one (dev outbox,
      // built-in JWT fallback), whatever an older .dev.vars says.
      "--var",
      "APP_ENV:local",
      ...(process.env.EDGE_CACHE ? ["--var", `EDGE_CACHE:${process.env.EDGE_CACHE}`] : []),
      ...(process.env.PASSWORD_HASH_COST ? ["--var", `PASSWORD_HASH_COST:${process.env.PASSWORD_HASH_COST}`] : []),
      ...paymentVars,
    ],
    {
      // wrangler lists each module of a built Worker in a table (some 80 rows): not worth a screen.
      dropLine: (line) => /^[│┌├└]/.test(line) || line.startsWith("Attaching additional modules"),
    },
  );
  let exited = false;
  server.then(() => (exited = true));

  // (g) wait until it answers, then say so
  const up = await waitForHttp(`http://${HOST}:${PORT}/`, Date.now() + TIMEOUT_S * 1000, () => !exited && !stopping);
  if (up && !stopping) {
    const lines = [
      "",
      `${paint(32, "✔")} Lekebytte kjører på ${URL_SHOWN}`,
      `  (server klar på ${seconds(tDev)}, totalt ${seconds(t0)})`,
      "",
      "Demo-innlogginger (e-post / passord / rolle):",
      ...formatDemoLogins(),
      "",
      `E-post sendt lokalt vises på ${URL_SHOWN}/dev/mail`,
      ...(sandboxUrl
        ? [`Betalingssandkasse på ${sandboxUrl} (testkort 4242 4242 4242 4242, Vipps: et hvilket som helst norsk mobilnummer)`]
        : []),
      ...(sandboxUrl && (providers.bring || providers.helthjem)
        ? [
            `Pakker sendt med ${[providers.bring && "Posten", providers.helthjem && "Helthjem"].filter(Boolean).join(" og ")} flyttes videre på ${sandboxUrl}/frakt/tester`,
          ]
        : []),
      "Stopp med Ctrl+C. Data beholdes til «npm run reset».",
      "",
    ];
    console.log(lines.join("\n"));
  } else if (!exited && !stopping) {
    console.error(`\n✗ Serveren svarte ikke på ${TIMEOUT_S} s – stopper.`);
    onSignal("SIGTERM");
    await server;
    process.exit(1);
  }

  const { code } = await server;
  killGroup(sandbox, "SIGTERM");
  process.exit(code);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  killGroup(current, "SIGTERM");
  killGroup(sandbox, "SIGTERM");
  process.exit(1);
});
