// The shell's text, cut once at the places a page writes into (decision 114). Every page built on
// the SPA's index.html changes the same few spots — the start and end of <head>, the title, the
// generic description, #root — so the shell is split there once per deployment (routes.ts keeps it
// by its ETag) and each page is the pieces joined with its own parts: no parser walks the 60 KB of
// inlined CSS on every request, as HTMLRewriter did.
import { escapeHtml, escapeText } from "../../lib/html";

/** What a page writes into the shell; every part is optional and each is written once. */
export interface ShellWrites {
  /**
   * HTML early in <head>: after the shell's viewport meta (or first, without one), so a preload's
   * media queries and sizes are read at the page's width, not a phone's default 980 px.
   */
  headStart?: string;
  /** HTML last in <head>. */
  headEnd?: string;
  /** The page's title (text: escaped here). */
  title?: string;
  /** Leave out the shell's generic meta description (the page brings its own). */
  withoutDescription?: boolean;
  /** Attributes added to #root (names as written; values escaped here). */
  rootAttributes?: Record<string, string>;
  /** #root's content (HTML). */
  rootHtml?: string;
}

/** The shell cut at its writable spots: `html` with the offsets of each. */
export interface ShellTemplate {
  html: string;
  /** Just after the shell's `<meta name="viewport" …>`, or after `<head …>` without one. */
  headStartAt: number;
  /** The title's text. */
  titleStart: number;
  titleEnd: number;
  /** The whole `<meta name="description" …>` element (an empty range when the shell has none). */
  descriptionStart: number;
  descriptionEnd: number;
  /** At `</head>`. */
  headClose: number;
  /** At the `>` that ends #root's start tag. */
  rootOpenEnd: number;
  /** #root's (empty) content: from just after its start tag to its `</div>`. */
  rootClose: number;
}

function found(html: string, pattern: RegExp, what: string): RegExpExecArray {
  const match = pattern.exec(html);
  if (!match) throw new Error(`The shell (index.html) has no ${what}: pages cannot be written into it`);
  return match;
}

/**
 * Finds the writable spots of the shell. The shell is ours (web/index.html, also as Vite's dev server
 * serves it); a missing spot is a build mistake, reported at once rather than served as a page
 * without its data.
 */
export function cutShell(html: string): ShellTemplate {
  const head = found(html, /<head(?:\s[^>]*)?>/i, "<head>");
  const viewport = /<meta\s+name="viewport"[^>]*>/i.exec(html);
  const title = found(html, /<title>([^<]*)<\/title>/i, "<title>");
  const description = /<meta\s+name="description"[^>]*>/i.exec(html);
  const headClose = html.indexOf("</head>");
  // The shell's #root is empty: what the browser renders (or the edge) goes in.
  const root = found(html, /<div id="root"(\s[^>]*)?>(\s*)<\/div>/, 'empty <div id="root">');
  const titleStart = title.index + "<title>".length;
  const titleEnd = titleStart + title[1]!.length;
  const rootOpenEnd = root.index + '<div id="root"'.length + (root[1]?.length ?? 0);
  const template: ShellTemplate = {
    html,
    headStartAt: viewport ? viewport.index + viewport[0].length : head.index + head[0].length,
    titleStart,
    titleEnd,
    descriptionStart: description ? description.index : titleEnd,
    descriptionEnd: description ? description.index + description[0].length : titleEnd,
    headClose,
    rootOpenEnd,
    rootClose: rootOpenEnd + 1 + root[2]!.length,
  };
  const order = [
    template.headStartAt,
    template.titleStart,
    template.titleEnd,
    template.descriptionStart,
    template.descriptionEnd,
    template.headClose,
    template.rootOpenEnd,
    template.rootClose,
  ];
  if (order.some((at, i) => at < 0 || (i > 0 && at < order[i - 1]!))) {
    throw new Error("The shell (index.html) is not in the expected order: <head>, <title>, description, </head>, #root");
  }
  return template;
}

/** The shell with a page's parts written in (the shell itself for no writes). */
export function writeShell(template: ShellTemplate, writes: ShellWrites): string {
  const { html } = template;
  // The plain shell (a 404, a HEAD) is the text as it came, not a copy joined from its pieces.
  if (Object.keys(writes).length === 0) return html;
  const attributes = Object.entries(writes.rootAttributes ?? {})
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join("");
  return [
    html.slice(0, template.headStartAt),
    writes.headStart ?? "",
    html.slice(template.headStartAt, template.titleStart),
    writes.title === undefined ? html.slice(template.titleStart, template.titleEnd) : escapeText(writes.title),
    html.slice(template.titleEnd, template.descriptionStart),
    writes.withoutDescription ? "" : html.slice(template.descriptionStart, template.descriptionEnd),
    html.slice(template.descriptionEnd, template.headClose),
    writes.headEnd ?? "",
    html.slice(template.headClose, template.rootOpenEnd),
    attributes,
    ">",
    writes.rootHtml ?? html.slice(template.rootOpenEnd + 1, template.rootClose),
    html.slice(template.rootClose),
  ].join("");
}
