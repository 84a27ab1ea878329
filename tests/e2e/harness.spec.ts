// The fixture's guards must really fail tests: each case here is expected to fail (test.fail()).
// The pages are served by page.route, so these cases do not depend on the app.
import { expect, test } from "./fixtures";

const page = (body: string, lang = ' lang="nb"') =>
  `<!doctype html><html${lang}><head><meta charset="utf-8"><title>Harness</title></head><body><main>${body}</main></body></html>`;

test.describe("fixture guards", () => {
  test("a serious accessibility violation fails the test", async ({ page: p }) => {
    test.fail(true, "an image without alt text is a critical axe violation");
    await p.route("**/__harness/axe", (route) =>
      route.fulfill({ contentType: "text/html", body: page('<h1>Bilde</h1><img src="/x.png">') }),
    );
    await p.goto("/__harness/axe");
    await expect(p.getByRole("heading", { name: "Bilde" })).toBeVisible();
  });

  test("a violation on a page the test leaves at once still fails the test", async ({ page: p }) => {
    test.fail(true, "the first page is scanned before page.goto returns");
    await p.route("**/__harness/bad", (route) => route.fulfill({ contentType: "text/html", body: page('<img src="/x.png">') }));
    await p.route("**/__harness/good", (route) => route.fulfill({ contentType: "text/html", body: page("<h1>OK</h1>") }));
    await p.goto("/__harness/bad");
    await p.goto("/__harness/good");
  });

  test("an uncaught page error fails the test", async ({ page: p }) => {
    test.fail(true, "pageerror is a failure unless the test opts out");
    await p.route("**/__harness/throws", (route) =>
      route.fulfill({ contentType: "text/html", body: page('<h1>Feil</h1><script>throw new Error("harness boom")</script>') }),
    );
    await p.goto("/__harness/throws");
  });

  test("an inline script blocked by the Content-Security-Policy fails the test", async ({ page: p }) => {
    test.fail(true, "a CSP violation is a failure");
    await p.route("**/__harness/csp", (route) =>
      route.fulfill({
        contentType: "text/html",
        headers: { "Content-Security-Policy": "script-src 'self'" },
        body: page('<h1>Streng</h1><script>document.title = "kjørt"</script>'),
      }),
    );
    await p.goto("/__harness/csp");
    await expect(p.getByRole("heading", { name: "Streng" })).toBeVisible();
  });

  test("a WebSocket to another host blocked by connect-src fails the test", async ({ page: p }) => {
    test.fail(true, "a CSP violation is a failure");
    await p.route("**/__harness/csp-socket", (route) =>
      route.fulfill({
        contentType: "text/html",
        headers: { "Content-Security-Policy": "connect-src 'self'" },
        body: page("<h1>Socket</h1>"),
      }),
    );
    await p.goto("/__harness/csp-socket");
    await p.evaluate(
      () =>
        new Promise<void>((resolve) => {
          // Chromium reports the violation and fires neither error nor close on the socket.
          document.addEventListener("securitypolicyviolation", () => resolve());
          new WebSocket("ws://127.0.0.2:9/");
        }),
    );
  });

  test.describe("with allowPageErrors", () => {
    test.use({ allowPageErrors: true });

    test("an uncaught page error is allowed", async ({ page: p }) => {
      await p.route("**/__harness/throws", (route) =>
        route.fulfill({ contentType: "text/html", body: page('<h1>Feil</h1><script>throw new Error("harness boom")</script>') }),
      );
      await p.goto("/__harness/throws");
    });
  });

  test("a clean page passes", async ({ page: p }) => {
    await p.route("**/__harness/clean", (route) => route.fulfill({ contentType: "text/html", body: page("<h1>Alt i orden</h1>") }));
    await p.goto("/__harness/clean");
    await expect(p.getByRole("heading", { name: "Alt i orden" })).toBeVisible();
  });
});
