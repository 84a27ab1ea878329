// The signed-in hint (docs/decisions/121): a cookie the page's first script can read, `1` while the
// browser holds a session, so the controls that depend on who is signed in wait for the session's
// check instead of showing a visitor's first. It lives and ends with the session cookies and
// carries nothing of the session itself.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createUser } from "../../factories";
import { Client } from "../support/http";

const PASSWORD = "hemmelig123";

/** The Set-Cookie line for `name`, as the browser gets it. */
const line = (res: Response, name: string) => res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
const maxAge = (cookie: string | undefined) => Number(/Max-Age=(\d+)/i.exec(cookie ?? "")?.[1]);

async function signIn() {
  const user = await createUser({ password: PASSWORD });
  const client = new Client();
  const res = await client.post("/api/auth/signin", { email: user.email, password: PASSWORD });
  expect(res.status).toBe(200);
  return { client, res };
}

describe("the signed-in hint cookie", () => {
  it("is set with a sign-in: readable by the page (not HttpOnly), for every path, as long as the refresh cookie", async () => {
    const { res, client } = await signIn();
    const hint = line(res, "lb_signed_in");
    expect(hint).toMatch(/^lb_signed_in=1;/);
    expect(hint).not.toMatch(/HttpOnly/i);
    expect(hint).toMatch(/Path=\/(;|$)/);
    expect(hint).toMatch(/SameSite=Lax/i);
    expect(maxAge(hint)).toBe(maxAge(line(res, "lb_refresh")));
    expect(client.cookies.get("lb_signed_in")).toBe("1");
  });

  it("is renewed with the session and cleared by signing out", async () => {
    const { client } = await signIn();
    const refreshed = await client.post("/api/auth/refresh");
    expect(refreshed.status).toBe(200);
    expect(line(refreshed, "lb_signed_in")).toMatch(/^lb_signed_in=1;/);

    const out = await client.post("/api/auth/signout");
    expect(out.status).toBe(204);
    expect(maxAge(line(out, "lb_signed_in"))).toBe(0);
    expect(client.cookies.has("lb_signed_in")).toBe(false);
  });

  it("is cleared when a refresh fails (the session has ended)", async () => {
    const client = new Client();
    client.cookies.set("lb_refresh", "no-such-token");
    client.cookies.set("lb_signed_in", "1");
    const res = await client.post("/api/auth/refresh");
    expect(res.status).toBe(401);
    expect(maxAge(line(res, "lb_signed_in"))).toBe(0);
  });

  it("is named for the host alone over https (__Host-, Secure), like the access cookie", async () => {
    const user = await createUser({ password: PASSWORD });
    const res = await exports.default.fetch(
      new Request("https://localhost/api/auth/signin", {
        method: "POST",
        headers: { Origin: "https://localhost", "Content-Type": "application/json" },
        body: JSON.stringify({ email: user.email, password: PASSWORD }),
      }),
    );
    expect(res.status).toBe(200);
    const hint = line(res, "__Host-lb_signed_in");
    expect(hint).toMatch(/^__Host-lb_signed_in=1;/);
    expect(hint).toMatch(/;\s*Secure/i);
    expect(hint).toMatch(/Path=\/(;|$)/);
    expect(hint).not.toMatch(/HttpOnly|Domain=/i);
  });
});
