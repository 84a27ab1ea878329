import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { AppError, errorResponse } from "./lib/errors";
import { configRoutes } from "./routes/config";
import { homeRoutes } from "./routes/home";
import { imageRoutes } from "./routes/images";
import { pageRoutes } from "./routes/pages";

const api = new Hono<AppEnv>().route("/home", homeRoutes).route("/config", configRoutes);

export const app = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next();
    c.header("X-Content-Type-Options", "nosniff");
    c.header("Referrer-Policy", "strict-origin-when-cross-origin");
    c.header("X-Frame-Options", "DENY");
  })
  .route("/api", api)
  .route("/images", imageRoutes)
  .all("/api/*", () => {
    throw new AppError("NOT_FOUND");
  })
  .route("/", pageRoutes);

app.onError((err, c) => {
  if (err instanceof AppError) return errorResponse(c, err);
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = status === 413 ? "PAYLOAD_TOO_LARGE" : status === 401 ? "UNAUTHENTICATED" : status === 400 ? "VALIDATION" : "INTERNAL";
    return errorResponse(c, new AppError(code));
  }
  console.error("Unhandled error", c.req.method, c.req.path, err);
  return errorResponse(c, new AppError("INTERNAL"));
});

app.notFound((c) => errorResponse(c, new AppError("NOT_FOUND")));

export type AppType = typeof api;
