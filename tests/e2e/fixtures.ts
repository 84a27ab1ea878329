// The shared Playwright fixture: every spec imports `test` and `expect` from here.
//
// - Accessibility: axe-core (WCAG 2.0/2.1 A and AA) runs on every page a test visits: page.goto,
//   reload, goBack and goForward return only after the page has settled (load, network idle) and
//   been scanned; navigations the app makes itself (links, redirects, history API) are scanned in
//   the background once they settle; and the page is scanned once more at the end of the test. A
//   page in a state axe has already scanned in the run (same address, markup, scroll, viewport and
//   focus; in this test or another) is not scanned again: the answer would be the same.
//   A violation with impact "serious" or "critical" fails the test with the rule ids, targets and
//   help text. Options: `axeScan: false` turns scanning off, `axeDisabledRules` skips rules.
// - Uncaught page errors (`pageerror`) fail the test unless it opts out:
//     test.use({ allowPageErrors: true })
// - Content-Security-Policy violations (the browser's console report and the page's
//   `securitypolicyviolation` event) and Permissions-Policy header errors always fail the test: every
//   page must work under the policy (docs/decisions/024-content-security-policy.md).
// - The analytics consent banner is answered "Bare nødvendige" before each page loads, so it does not
//   cover what a test clicks; tests of the banner (and the size budget) set `analyticsConsent: null`.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { test as base, expect, type Page, type TestInfo } from "@playwright/test";
import type { Result, RunOptions } from "axe-core";

export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const FAILING_IMPACTS = new Set(["serious", "critical"]);
/** The browser's console reports of a blocked resource or a malformed policy header. */
const POLICY_MESSAGE = /Content Security Policy|Content-Security-Policy|Permissions-Policy|Permissions Policy/i;
/** How long a page may keep the network busy before it is scanned anyway. */
const SETTLE_TIMEOUT_MS = 5_000;

/** axe-core's minified build, sent into a page once per document. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * axe's violations of the page as it is now, with the rules every scan applies (AXE_TAGS, less
 * `disabledRules`), on the whole page or only inside `include` (a CSS selector).
 *
 * axe-core runs inside the page itself, as @axe-core/playwright's legacy mode does (the app has no
 * iframes), but its 650 KB are sent into a document only once: the builder sent and compiled them
 * again for every scan, about half of a scan's cost. Only violations are collected: the scans read
 * nothing else, and building the lists of passes costs a scan about a fifth of its time.
 */
export async function axeViolations(
  page: Page,
  { disabledRules = [], include }: { disabledRules?: string[]; include?: string } = {},
): Promise<Result[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const options: RunOptions = {
    runOnly: { type: "tag", values: AXE_TAGS },
    rules: Object.fromEntries(disabledRules.map((id) => [id, { enabled: false }])),
    resultTypes: ["violations"],
  };
  return page.evaluate(
    // axe itself lives in the page; only the options and the answer cross.
    ([context, runOptions]) =>
      (window as unknown as { axe: typeof import("axe-core") }).axe
        .run(context ? { include: [[context]] } : document, runOptions)
        .then((r) => r.violations),
    [include ?? null, options] as const,
  );
}

export interface E2EOptions {
  /** Let uncaught page errors pass (tests that provoke them on purpose). */
  allowPageErrors: boolean;
  /** axe rule ids to skip, with a reason in the test; keep this empty wherever possible. */
  axeDisabledRules: string[];
  /** Turn the automatic axe scans off (e.g. a test that only measures the network). */
  axeScan: boolean;
  /** The analytics choice stored before each page loads (`lb_consent`); null shows the banner. */
  analyticsConsent: "necessary" | "analytics" | null;
}

interface Finding {
  url: string;
  violation: Result;
}

// biome-ignore lint/suspicious/noConfusingVoidType: Playwright's idiom for an automatic fixture that yields nothing
export const test = base.extend<E2EOptions & { pageGuards: void }>({
  allowPageErrors: [false, { option: true }],
  axeDisabledRules: [[], { option: true }],
  axeScan: [true, { option: true }],
  analyticsConsent: ["necessary", { option: true }],

  pageGuards: [
    async ({ page, allowPageErrors, axeDisabledRules, axeScan, analyticsConsent }, use, testInfo) => {
      if (analyticsConsent) {
        await page.addInitScript((choice) => {
          try {
            if (!window.localStorage.getItem("lb_consent")) window.localStorage.setItem("lb_consent", choice);
          } catch {
            // about:blank and opaque origins have no storage
          }
        }, analyticsConsent);
      }
      const pageErrors: Error[] = [];
      const findings: Finding[] = [];
      const reported = new Set<string>();
      let chain: Promise<void> = Promise.resolve();
      let backgroundScanQueued = false;
      let inPageNavigation = 0;
      let closing = false;

      page.on("pageerror", (error) => pageErrors.push(error));

      const policyViolations: string[] = [];
      page.on("console", (message) => {
        if (POLICY_MESSAGE.test(message.text())) policyViolations.push(`${page.url()}: [console ${message.type()}] ${message.text()}`);
      });
      // Bindings and init scripts come from the test driver, which the page's CSP does not govern.
      await page.exposeBinding("__e2eReportPolicyViolation", ({ frame }, report: string) => {
        policyViolations.push(`${frame.url()}: [securitypolicyviolation] ${report}`);
      });
      await page.addInitScript(() => {
        document.addEventListener("securitypolicyviolation", (event) => {
          const report = `${event.effectiveDirective} blocked ${event.blockedURI || "(inline)"} at ${event.sourceFile}:${event.lineNumber}`;
          void (window as unknown as { __e2eReportPolicyViolation: (r: string) => Promise<void> }).__e2eReportPolicyViolation(report);
        });
      });

      const scan = async (reason: string) => {
        if (!axeScan || page.isClosed()) return;
        await settle(page);
        const url = page.url();
        if (url === "about:blank" || page.isClosed()) return;
        // axe answers the same for the same page in the same state, so a state this run has scanned
        // (in this test: a navigation event right after a page.goto's own scan; in another: the
        // static pages, the sign-in form) takes that scan's answer.
        const state = await pageState(page);
        const shared = state ? scansOfTheRun(testInfo, state, axeDisabledRules) : null;
        const earlier = shared?.read();
        if (earlier) {
          testInfo.annotations.push({
            type: "axe",
            description: `${reason}: ${url} (${earlier.length} violations, scanned before in this run)`,
          });
          report(url, earlier);
          return;
        }
        const axe = () => axeViolations(page, { disabledRules: axeDisabledRules });
        let violations: Result[];
        try {
          violations = await axe();
          // axe reads the page in steps; a test acting meanwhile (typing enables a button) can give
          // it one element's state from before and its colours from after. A violation seen on a
          // page that changed during the scan is checked on the page as it is now.
          // (Another address by now, or gone during the second scan: the first answer stands.)
          const now = violations.some((v) => FAILING_IMPACTS.has(v.impact ?? "")) && state ? await pageState(page) : state;
          if (now && now !== state && page.url() === url) {
            const first = violations;
            violations = await axe().catch((error) => {
              if (closing || isNavigationRace(error)) return first;
              throw error;
            });
          } else {
            // The page stayed as it was keyed: the answer is the state's.
            shared?.write(violations);
          }
        } catch (error) {
          // The test moved on (navigation, close) while axe ran; the next page gets its own scan.
          if (closing || isNavigationRace(error)) return;
          // A navigation can also surface inside axe itself (a missing document): a page that is no
          // longer the one scanned, or that could not be read before the scan (null: it was already
          // navigating), is left to its own scan.
          if (state === null || (await pageState(page)) !== state) return;
          // axe failed on a page that stayed as it was (seen once in some 400 scans, "reading
          // 'documentElement'"): scanned once more, and a second failure is reported.
          try {
            violations = await axe();
          } catch (again) {
            if (closing || isNavigationRace(again)) return;
            throw again;
          }
        }
        testInfo.annotations.push({ type: "axe", description: `${reason}: ${url} (${violations.length} violations)` });
        report(url, violations);
      };

      const report = (url: string, violations: Result[]) => {
        for (const violation of violations) {
          if (!FAILING_IMPACTS.has(violation.impact ?? "")) continue;
          // One report per rule, page and set of targets, however often the page is scanned.
          const key = `${url} ${violation.id} ${violation.nodes.map((n) => n.target.join(" ")).join(",")}`;
          if (reported.has(key)) continue;
          reported.add(key);
          findings.push({ url, violation });
        }
      };

      const enqueue = (reason: string): Promise<void> => {
        chain = chain
          .then(() => scan(reason))
          .catch((error) => {
            findings.push({ url: page.url(), violation: scanFailure(error) });
          });
        return chain;
      };

      // page.goto / reload / goBack / goForward return once the page has settled and been scanned,
      // so a page the test leaves right away is still checked.
      for (const method of ["goto", "reload", "goBack", "goForward"] as const) {
        const original = page[method].bind(page) as (...args: unknown[]) => Promise<unknown>;
        (page as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
          inPageNavigation++;
          try {
            const response = await original(...args);
            await enqueue(`after page.${method}`);
            return response;
          } finally {
            inPageNavigation--;
          }
        };
      }

      // Navigations the app makes itself (links, redirects, history API): scanned in the background
      // once the page settles; several navigations in a row collapse into one scan.
      page.on("framenavigated", (frame) => {
        if (frame !== page.mainFrame() || inPageNavigation > 0 || backgroundScanQueued) return;
        backgroundScanQueued = true;
        chain = chain.then(() => {
          backgroundScanQueued = false;
        });
        void enqueue("after navigation");
      });

      await use();

      // End of the test: the page as the test left it, after any scans still queued.
      await enqueue("end of test");
      closing = true;

      if (policyViolations.length > 0) {
        throw new Error(`Content-Security-Policy / Permissions-Policy violations:\n${policyViolations.map((v) => `  - ${v}`).join("\n")}`);
      }
      if (findings.length > 0) {
        await attachJson(testInfo, "axe-violations.json", findings);
        throw new Error(`Accessibility violations (serious/critical, ${AXE_TAGS.join(", ")}):\n${formatFindings(findings)}`);
      }
      if (pageErrors.length > 0 && !allowPageErrors) {
        throw new Error(
          `Uncaught errors in the page (use test.use({ allowPageErrors: true }) if they are expected):\n` +
            pageErrors.map((e) => `  - ${e.name}: ${e.message}\n${indent(e.stack ?? "", 6)}`).join("\n"),
        );
      }
    },
    { auto: true },
  ],
});

export { expect };

/** Wait until the page has loaded and the network has been quiet for a moment (bounded). */
async function settle(page: Page): Promise<void> {
  try {
    await page.waitForLoadState("load", { timeout: SETTLE_TIMEOUT_MS });
    await page.waitForLoadState("networkidle", { timeout: SETTLE_TIMEOUT_MS });
  } catch {
    // A page that never goes idle (polling) is scanned as it is.
  }
  if (page.isClosed()) return;
  // Let React commit what the navigation started (a refresh marks its region busy only then).
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => {});
  // A region still refreshing (aria-busy, drawn faded) is not what the page settles on: axe would
  // measure the contrast of its fade. Wait for it, and for the transitions that follow, bounded.
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: SETTLE_TIMEOUT_MS }).catch(() => {});
  await page
    .evaluate(() =>
      Promise.race([
        Promise.all(
          document
            .getAnimations()
            .filter((a) => a.effect?.getTiming().iterations !== Infinity)
            .map((a) => a.finished.catch(() => undefined)),
        ),
        new Promise((resolve) => setTimeout(resolve, 1_000)),
      ]),
    )
    .catch(() => {});
  // Let React commit what the last responses triggered.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))).catch(() => {});
}

/**
 * The answers of this run's scans, shared by the tests of all workers: a file per page state (and
 * set of disabled rules) in the run's output folder, which Playwright empties before each run.
 * Only violations are kept; a state seen for the first time is scanned.
 */
function scansOfTheRun(testInfo: TestInfo, state: string, disabledRules: string[]) {
  const key = createHash("sha256")
    .update(JSON.stringify([state, [...disabledRules].sort()]))
    .digest("hex");
  const dir = path.join(testInfo.project.outputDir, ".axe-scans");
  const file = path.join(dir, `${key}.json`);
  return {
    read(): Result[] | null {
      try {
        return JSON.parse(readFileSync(file, "utf8")) as Result[];
      } catch {
        return null;
      }
    },
    write(violations: Result[]): void {
      mkdirSync(dir, { recursive: true });
      // Whole or not at all: another worker may read it meanwhile.
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(violations));
      renameSync(temporary, file);
    },
  };
}

/**
 * What axe's answer depends on, as one key: the address, a hash of the whole markup (attributes,
 * text, open dialogs), the scroll position and viewport (which element is on top where), and the
 * focused element. Null when the page cannot answer (it is navigating): then it is scanned.
 */
async function pageState(page: Page): Promise<string | null> {
  return page
    .evaluate(() => {
      const html = document.documentElement.outerHTML;
      // FNV-1a over the markup: a millisecond for a page, against a few hundred for an axe run.
      let hash = 0x811c9dc5;
      for (let i = 0; i < html.length; i++) hash = Math.imul(hash ^ html.charCodeAt(i), 0x01000193);
      const active = document.activeElement;
      const focus = active
        ? `${active.tagName}#${active.id}.${Array.prototype.indexOf.call(active.parentElement?.children ?? [], active)}`
        : "";
      return [location.href, html.length, hash >>> 0, scrollX, scrollY, innerWidth, innerHeight, focus].join(" ");
    })
    .catch(() => null);
}

function isNavigationRace(error: unknown): boolean {
  const message = String((error as Error)?.message ?? error);
  // "reading 'run'": the page navigated between injecting axe and running it.
  return /Execution context was destroyed|navigat|Target (page, context or browser )?(has been )?closed|frame was detached|Cannot find context|reading 'run'/i.test(
    message,
  );
}

function scanFailure(error: unknown): Result {
  return {
    id: "axe-scan-failed",
    impact: "critical",
    help: `axe could not scan the page: ${String((error as Error)?.message ?? error)}`,
    helpUrl: "",
    description: "",
    tags: [],
    nodes: [],
  };
}

function formatFindings(findings: Finding[]): string {
  return findings
    .map(({ url, violation }) => {
      const targets = violation.nodes
        .slice(0, 10)
        .map((node) => `      • ${node.target.join(" ")}${node.failureSummary ? `\n${indent(node.failureSummary, 8)}` : ""}`)
        .join("\n");
      const more = violation.nodes.length > 10 ? `\n      … and ${violation.nodes.length - 10} more` : "";
      return `  [${violation.impact}] ${violation.id} on ${url}\n    ${violation.help}${violation.helpUrl ? ` (${violation.helpUrl})` : ""}\n${targets}${more}`;
    })
    .join("\n");
}

function indent(text: string, spaces: number): string {
  const pad = " ".repeat(spaces);
  return text
    .split("\n")
    .map((line) => pad + line)
    .join("\n");
}

async function attachJson(testInfo: TestInfo, name: string, value: unknown): Promise<void> {
  await testInfo.attach(name, { body: JSON.stringify(value, null, 2), contentType: "application/json" });
}
