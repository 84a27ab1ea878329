import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cutShell, writeShell } from "../../worker/features/shell/shell-text";

const SHELL = [
  "<!doctype html>",
  '<html lang="nb">',
  "  <head>",
  '    <meta charset="UTF-8" />',
  "    <title>Lekebytte</title>",
  '    <meta name="description" content="Generisk" />',
  "    <style>a>b{color:red}</style>",
  "  </head>",
  "  <body>",
  '    <div id="root"></div>',
  "    <section>banner</section>",
  "  </body>",
  "</html>",
].join("\n");

describe("the shell cut at its writable spots", () => {
  it("gives the shell back byte for byte when a page writes nothing", () => {
    expect(writeShell(cutShell(SHELL), {})).toBe(SHELL);
  });

  it("cuts the app's own index.html, which every page is built on", () => {
    const html = readFileSync(path.join(import.meta.dirname, "../../index.html"), "utf8");
    const template = cutShell(html);
    expect(writeShell(template, {})).toBe(html);
    const page = writeShell(template, { title: "Annonse", withoutDescription: true, rootHtml: "<p>x</p>" });
    expect(page).toContain("<title>Annonse</title>");
    expect(page).not.toContain('name="description"');
    expect(page).toContain('<div id="root"><p>x</p></div>');
  });

  it("writes each part in its place and leaves the rest as it was", () => {
    const page = writeShell(cutShell(SHELL), {
      headStart: '<link rel="preload" as="image" href="/images/a.jpg">',
      headEnd: '<script id="preloaded-api" type="application/json">{}</script>',
      title: "Kosebamse – Lekebytte",
      withoutDescription: true,
      rootAttributes: { "data-rendered-at": "2026-11-27T04:00:00.000Z" },
      rootHtml: "<main>Kosebamse</main>",
    });
    expect(page).toBe(
      [
        "<!doctype html>",
        '<html lang="nb">',
        '  <head><link rel="preload" as="image" href="/images/a.jpg">',
        '    <meta charset="UTF-8" />',
        "    <title>Kosebamse – Lekebytte</title>",
        "    ",
        "    <style>a>b{color:red}</style>",
        '  <script id="preloaded-api" type="application/json">{}</script></head>',
        "  <body>",
        '    <div id="root" data-rendered-at="2026-11-27T04:00:00.000Z"><main>Kosebamse</main></div>',
        "    <section>banner</section>",
        "  </body>",
        "</html>",
      ].join("\n"),
    );
  });

  it("writes the head's start after the viewport meta: a preload's sizes are read at the page's width, not a phone's 980 px", () => {
    const html = readFileSync(path.join(import.meta.dirname, "../../index.html"), "utf8");
    const link = '<link rel="preload" as="image" imagesrcset="/images/a.jpg/360.webp 360w" imagesizes="50vw">';
    const page = writeShell(cutShell(html), { headStart: link });
    expect(page.indexOf(link)).toBe(page.indexOf("/>", page.indexOf('<meta name="viewport"')) + 2);
  });

  it("escapes the title and attribute values (text from sellers)", () => {
    const page = writeShell(cutShell(SHELL), {
      title: `Lego <script>alert(1)</script> & "Duplo"`,
      rootAttributes: { "data-x": `"><img src=x onerror=alert(1)>` },
    });
    expect(page).toContain(`<title>Lego &lt;script&gt;alert(1)&lt;/script&gt; &amp; "Duplo"</title>`);
    expect(page).toContain('<div id="root" data-x="&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"></div>');
    expect(page).not.toContain("<script>alert");
  });

  it("keeps the attributes #root already has and a shell without a generic description", () => {
    const shell = SHELL.replace('    <meta name="description" content="Generisk" />\n', "").replace(
      '<div id="root">',
      '<div id="root" data-test-shell>',
    );
    const template = cutShell(shell);
    expect(writeShell(template, { withoutDescription: true })).toBe(shell);
    expect(writeShell(template, { rootAttributes: { "data-rendered-at": "t" }, rootHtml: "<p>x</p>" })).toContain(
      '<div id="root" data-test-shell data-rendered-at="t"><p>x</p></div>',
    );
  });

  it("refuses a shell it cannot write a page into, naming what is missing", () => {
    expect(() => cutShell(SHELL.replace('<div id="root"></div>', ""))).toThrow('has no empty <div id="root">');
    expect(() => cutShell(SHELL.replace('<div id="root"></div>', '<div id="root"><p>x</p></div>'))).toThrow('has no empty <div id="root">');
    expect(() => cutShell(SHELL.replace("<title>Lekebytte</title>", ""))).toThrow("has no <title>");
    expect(() => cutShell(SHELL.replace("  <head>", "  <hode>"))).toThrow("has no <head>");
  });
});
