#!/usr/bin/env node
// The browser for the end-to-end tests: Debian's Chromium headless shell (nothing here may download a
// browser). It is the browser Playwright itself runs headless tests in: the same engine without the
// desktop browser around it, about a third less CPU for the same tests (decision 106). `npm test`
// runs this first and `npm run test:e2e` runs it too: it finds the browser at CHROMIUM_PATH or
// /usr/bin/chromium-headless-shell, installs Debian's `chromium-headless-shell` with apt-get when it
// is missing and we are root, and otherwise stops with one line that says what to run.
import { spawnSync } from "node:child_process";
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium-headless-shell";
const PACKAGE = "chromium-headless-shell";
/** What .ci/run installs too: the browser and a font for rendering text. */
export const APT_PACKAGES = [PACKAGE, "fonts-dejavu-core"];

export function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(command) {
  return (process.env.PATH ?? "").split(path.delimiter).some((dir) => dir && isExecutableFile(path.join(dir, command)));
}

function aptInstall(packages) {
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  const options = { stdio: ["ignore", "inherit", "inherit"], env };
  return (
    spawnSync("apt-get", ["update"], options).status === 0 && spawnSync("apt-get", ["install", "-y", ...packages], options).status === 0
  );
}

/**
 * Resolves to `{ path }` of a usable Chromium, or `{ error }`: one line saying what to run.
 * Everything it touches can be replaced, so tests can simulate a machine without Chromium.
 */
export async function ensureChromium({
  env = process.env,
  isRoot = typeof process.getuid === "function" && process.getuid() === 0,
  canApt = onPath("apt-get"),
  exists = isExecutableFile,
  install = aptInstall,
  log = (line) => console.log(line),
} = {}) {
  const wanted = env.CHROMIUM_PATH || DEFAULT_CHROMIUM;
  if (exists(wanted)) return { path: wanted };
  if (env.CHROMIUM_PATH) {
    return {
      error: `CHROMIUM_PATH=${wanted} is not an executable file: point it at a Chromium binary, or unset it and run: sudo apt-get install -y ${PACKAGE}`,
    };
  }
  if (isRoot && canApt) {
    log(`[chromium] ${DEFAULT_CHROMIUM} is missing: installing Debian's ${PACKAGE} (apt-get install -y ${APT_PACKAGES.join(" ")})`);
    if (install(APT_PACKAGES) && exists(DEFAULT_CHROMIUM)) return { path: DEFAULT_CHROMIUM };
    return { error: `apt-get could not install ${PACKAGE}; install it yourself (apt-get install -y ${PACKAGE}) and run npm test again` };
  }
  return {
    error: `No Chromium for the browser tests: run "sudo apt-get install -y ${PACKAGE}" (or set CHROMIUM_PATH to a Chromium binary), then npm test again`,
  };
}

// As a command (`node scripts/chromium.mjs`): exit 0 with a browser, 1 with the one line.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = await ensureChromium();
  if (result.error) {
    console.error(result.error);
    process.exit(1);
  }
}
