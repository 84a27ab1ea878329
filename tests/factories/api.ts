// Response bodies exactly as the Worker sends them, for the web tests' fake fetch. Their types come
// from the Worker's routes (AppType through Hono's client types), and
// tests/worker/response-shapes.integration.test.ts compares each builder with the real answer of its
// endpoint, so a web test cannot fake a shape the Worker never sends. No Workers runtime here: the
// web tests (jsdom) import this file too.
//
// The builders by area: api-core.ts (the client type, the test ids, session, config, profile,
// errors), api-listings.ts, api-chat.ts, api-deals.ts (trades, giveaways, reviews) and api-admin.ts
// (the operator's page).
export * from "./api-core";
export * from "./api-listings";
export * from "./api-chat";
export * from "./api-deals";
export * from "./api-admin";
