// Sign-in and "Glemt passord?" without JavaScript (docs/decisions/126-sign-in-without-javascript.md):
// /auth and /auth/glemt-passord arrive with a plain form in a <noscript> inside #root (the app
// renders #root anew); posting it signs in (a 303 on with the session's cookies) or comes back to
// the form with its Norwegian text.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_ERRORS } from "../../../domain/auth";
import { FORGOT_PASSWORD_ANSWER } from "../../../domain/credentials";
import { createUser } from "../../factories";
import { rootOf } from "../../factories/page-html";
import { PASSWORD, signedInAs, waitForMail } from "../support/accounts";
import { Client } from "../support/http";

/** Each test signs in with real password hashing (scrypt) a few times: generous on a busy machine. */
const SLOW = { timeout: 60_000 };

let addresses = 0;

function postForm(client: Client, path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  addresses += 1;
  return client.request(path, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "CF-Connecting-IP": `198.18.0.${addresses}`, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Whether #root holds, for browsers without JavaScript, a form that posts to `action`. */
function postsTo(content: string, action: string): boolean {
  const tag = content.match(new RegExp(`<noscript>[\\s\\S]*<form[^>]*action="${action}"[^>]*>`))?.[0];
  return tag !== undefined && /method="post"/.test(tag);
}

/** The text a reader sees in #root, tags dropped. */
function rootText(html: string): string {
  return (rootOf(html)?.content ?? "").replace(/<[^>]+>|<!--[\s\S]*?-->/g, "");
}

describe("the sign-in form without JavaScript", SLOW, () => {
  it("/auth arrives with a form that posts to the server", async () => {
    const res = await new Client().get("/auth?next=%2Ffavoritter", { headers: { Accept: "text/html" } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const root = rootOf(html)!;
    expect(postsTo(root.content, "/api/auth/signin/form")).toBe(true);
    expect(root.content).toMatch(/<input[^>]*name="email"/);
    expect(root.content).toMatch(/<input[^>]*name="password"/);
    expect(root.content).toMatch(/<input type="hidden" name="next" value="\/favoritter">/);
    expect(rootText(html)).toContain("Glemt passord?");
    // A `next` off the site is not even written into the form, and no other page gets one.
    expect(
      rootOf(await (await new Client().get("/auth?next=%2F%2Fevil.example", { headers: { Accept: "text/html" } })).text())!.content,
    ).not.toContain('name="next"');
    expect(rootOf(await (await new Client().get("/om-oss", { headers: { Accept: "text/html" } })).text())!.content).not.toContain(
      "<noscript>",
    );
  });

  it("signs in: 303 on to `next` with the session and device cookies", async () => {
    const user = await createUser({ password: PASSWORD });
    const browser = new Client();
    const res = await postForm(browser, "/api/auth/signin/form", { email: user.email, password: PASSWORD, next: "/favoritter" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/favoritter");
    const cookies = res.headers.getSetCookie().join("\n");
    expect(cookies).toMatch(/lb_access=.+HttpOnly/);
    expect(cookies).toMatch(/lb_refresh=.+Path=\/api\/auth/);
    expect(cookies).toMatch(/lb_device=.+Path=\/api\/auth\/signin/);
    expect(await signedInAs(browser)).toBe(user.email);
  });

  it("never follows a `next` off the site", async () => {
    const user = await createUser({ password: PASSWORD });
    for (const next of ["//evil.example/", "https://evil.example/", "/\\evil.example"]) {
      const res = await postForm(new Client(), "/api/auth/signin/form", { email: user.email, password: PASSWORD, next });
      expect(res.headers.get("Location")).toBe("/");
    }
  });

  it("a wrong password comes back to /auth with its text, and no cookies", async () => {
    const user = await createUser({ password: PASSWORD });
    const res = await postForm(new Client(), "/api/auth/signin/form", { email: user.email, password: "feil", next: "/messages" });
    expect(res.status).toBe(303);
    expect(res.headers.get("Location")).toBe("/auth?feil=innlogging&next=%2Fmessages");
    expect(res.headers.getSetCookie()).toEqual([]);
    const page = await new Client().get(res.headers.get("Location")!, { headers: { Accept: "text/html" } });
    expect(rootText(await page.text())).toContain(FORM_ERRORS.innlogging);
  });

  it("empty fields, an unconfirmed account and the limit each say so", async () => {
    const unconfirmed = await createUser({ password: PASSWORD, emailConfirmed: false });
    const empty = await postForm(new Client(), "/api/auth/signin/form", { email: "", password: "" });
    expect(empty.headers.get("Location")).toBe("/auth?feil=mangler");
    const early = await postForm(new Client(), "/api/auth/signin/form", { email: unconfirmed.email, password: PASSWORD });
    expect(early.headers.get("Location")).toBe("/auth?feil=ikke-bekreftet");
    const user = await createUser({ password: PASSWORD });
    const address = { "CF-Connecting-IP": "198.19.0.1" };
    for (let i = 0; i < 10; i++) await postForm(new Client(), "/api/auth/signin/form", { email: user.email, password: "feil" }, address);
    const limited = await postForm(new Client(), "/api/auth/signin/form", { email: user.email, password: PASSWORD }, address);
    expect(limited.headers.get("Location")).toBe("/auth?feil=for-mange");
  });

  it("refuses a form posted from another site, and anything but a form", async () => {
    const user = await createUser({ password: PASSWORD });
    const foreign = await postForm(
      new Client(),
      "/api/auth/signin/form",
      { email: user.email, password: PASSWORD },
      { Origin: "https://evil.example" },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.headers.getSetCookie()).toEqual([]);
    const json = await new Client().post("/api/auth/signin/form", { email: user.email, password: PASSWORD });
    expect(json.status).toBe(415);
  });
});

describe("Glemt passord? without JavaScript", SLOW, () => {
  it("the page's form posts to the server, which answers on the page with the one text", async () => {
    const page = await new Client().get("/auth/glemt-passord", { headers: { Accept: "text/html" } });
    expect(postsTo(rootOf(await page.text())!.content, "/api/auth/password/forgot/form")).toBe(true);
    const user = await createUser();
    for (const email of [user.email, `ingen-${crypto.randomUUID().slice(0, 6)}@test.no`]) {
      const res = await postForm(new Client(), "/api/auth/password/forgot/form", { email });
      expect(res.status).toBe(303);
      expect(res.headers.get("Location")).toBe("/auth/glemt-passord?sendt=1");
    }
    await waitForMail(user.email, "Lag nytt passord");
    const answered = await new Client().get("/auth/glemt-passord?sendt=1", { headers: { Accept: "text/html" } });
    expect(rootText(await answered.text())).toContain(FORGOT_PASSWORD_ANSWER);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM password_resets WHERE user_id = ?1").bind(user.id).first<{ n: number }>();
    expect(rows!.n).toBe(1);
  });

  it("an empty or malformed address comes back with its text", async () => {
    const empty = await postForm(new Client(), "/api/auth/password/forgot/form", { email: " " });
    expect(empty.headers.get("Location")).toBe("/auth/glemt-passord?feil=mangler-epost");
    const bad = await postForm(new Client(), "/api/auth/password/forgot/form", { email: "ikke-en-adresse" });
    expect(bad.headers.get("Location")).toBe("/auth/glemt-passord?feil=ugyldig-epost");
    const page = await new Client().get("/auth/glemt-passord?feil=ugyldig-epost", { headers: { Accept: "text/html" } });
    expect(rootText(await page.text())).toContain(FORM_ERRORS["ugyldig-epost"]);
  });
});
