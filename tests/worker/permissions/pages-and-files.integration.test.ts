// The permission matrix (./run.ts; docs/security.md "How it is tested") for local mode's mail and
// statistics, crawlers' files, the API's own 404, the listing page and every page of the route table.
// Each row is asked as every role and must answer the expected status; a refusal must change nothing,
// and the API's refusals say why in Norwegian.
import { beforeAll, describe } from "vitest";
import { FILE_ROWS, PAGE_ROWS } from "./rows/pages-and-files";
import { sitemapInTwoFiles, walkRows } from "./run";

/** sitemap.xml as an index of two files, as the crawlers' rows ask for it. */
beforeAll(sitemapInTwoFiles);

describe("permission matrix", () => {
  walkRows([...FILE_ROWS, ...PAGE_ROWS]);
});
