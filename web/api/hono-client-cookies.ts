// Stands in for hono's cookie serializer in the browser build (vite.config.ts,
// `honoClientWithoutCookies`): the RPC client only needs it for a `cookie` argument, and the browser
// sends its own cookies, so nothing here passes one.
export function serialize(): never {
  throw new Error("The browser's API client sends no cookie argument: the browser sends its cookies itself.");
}
