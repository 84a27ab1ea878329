import type { Context } from "hono";

export type AppEnv = { Bindings: Env };
export type AppContext = Context<AppEnv>;
