// `npm test` on a machine without Chromium (scripts/chromium.mjs): it finds Debian's Chromium,
// installs it with apt-get when it is missing and we are root, and otherwise stops with one line
// that says what to run. The machine's own Chromium is never touched: a missing browser is
// simulated (CHROMIUM_PATH at a missing file, or a replaced existence check and installer).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { APT_PACKAGES, DEFAULT_CHROMIUM, ensureChromium } from "../../scripts/chromium.mjs";

const root = path.resolve(import.meta.dirname, "../..");

describe("ensureChromium", () => {
  it("uses Debian's Chromium where it is", async () => {
    const install = vi.fn(() => true);
    const result = await ensureChromium({ env: {}, exists: (file) => file === DEFAULT_CHROMIUM, install, log: () => {} });
    expect(result).toEqual({ path: DEFAULT_CHROMIUM });
    expect(install).not.toHaveBeenCalled();
  });

  it("uses CHROMIUM_PATH when it is an executable file", async () => {
    // Any real executable stands in for a browser binary here.
    const result = await ensureChromium({ env: { CHROMIUM_PATH: process.execPath }, log: () => {} });
    expect(result).toEqual({ path: process.execPath });
  });

  it("installs Debian's chromium-headless-shell with apt-get when it is missing and we are root", async () => {
    let installed = false;
    const install = vi.fn(() => (installed = true));
    const log = vi.fn();
    const result = await ensureChromium({ env: {}, isRoot: true, canApt: true, exists: () => installed, install, log });
    expect(install).toHaveBeenCalledWith(APT_PACKAGES);
    expect(APT_PACKAGES).toContain("chromium-headless-shell");
    expect(log).toHaveBeenCalledWith(expect.stringContaining("installing Debian's chromium-headless-shell"));
    expect(result).toEqual({ path: DEFAULT_CHROMIUM });
  });

  it.each([
    ["not root", { isRoot: false, canApt: true }],
    ["no apt-get", { isRoot: true, canApt: false }],
  ])("without Chromium and no way to install it (%s): one line saying what to run", async (_label, machine) => {
    const install = vi.fn(() => true);
    const result = await ensureChromium({ env: {}, ...machine, exists: () => false, install, log: () => {} });
    expect(install).not.toHaveBeenCalled();
    expect(result.error).toBe(
      'No Chromium for the browser tests: run "sudo apt-get install -y chromium-headless-shell" (or set CHROMIUM_PATH to a Chromium binary), then npm test again',
    );
  });

  it("says so when apt-get fails", async () => {
    const result = await ensureChromium({ env: {}, isRoot: true, canApt: true, exists: () => false, install: () => false, log: () => {} });
    expect(result.error).toMatch(/^apt-get could not install chromium-headless-shell; .*apt-get install -y chromium-headless-shell/);
  });
});

describe("npm test without a browser", () => {
  it("checks for the browser first, before the long test suites", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    expect(pkg.scripts.test).toBe("node scripts/test-all.mjs");
    // The runner (scripts/test-all.mjs) stops at the Chromium check: no later stage starts.
    const run = spawnSync(process.execPath, ["scripts/test-all.mjs"], {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium" },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^chromium +failed \(exit 1\) /m);
    expect(run.stdout).toMatch(/^typecheck \(beside\) +not run +-$/m);
  });

  it.each(["scripts/chromium.mjs", "scripts/e2e.mjs"])("node %s stops with exit 1 and one line when CHROMIUM_PATH is missing", (script) => {
    const run = spawnSync(process.execPath, [script], {
      cwd: root,
      env: { ...process.env, CHROMIUM_PATH: "/nonexistent/chromium", E2E_BASE_URL: "http://127.0.0.1:9" },
      encoding: "utf8",
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    const lines = run.stderr.trim().split("\n");
    expect(lines).toEqual([expect.stringContaining("CHROMIUM_PATH=/nonexistent/chromium is not an executable file")]);
    expect(lines[0]).toContain("apt-get install -y chromium-headless-shell");
  });
});
