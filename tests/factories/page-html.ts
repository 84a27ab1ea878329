// Reading a page the Worker served, for the worker and end-to-end tests of the edge-rendered first
// screen (decision 103). No imports: both test projects use it.

/** #root's opening tag's attributes and its content: the divs counted until #root closes. */
export function rootOf(html: string): { attributes: string; content: string } | null {
  const open = /<div id="root"([^>]*)>/.exec(html);
  if (!open) return null;
  const start = open.index + open[0].length;
  const tags = /<div\b[^>]*>|<\/div>/g;
  tags.lastIndex = start;
  let depth = 1;
  for (let tag = tags.exec(html); tag; tag = tags.exec(html)) {
    depth += tag[0] === "</div>" ? -1 : 1;
    if (depth === 0) return { attributes: open[1], content: html.slice(start, tag.index) };
  }
  return null;
}
