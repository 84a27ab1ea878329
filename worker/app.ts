import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { HTTPException } from "hono/http-exception";
import type { AppEnv } from "./env";
import { AppError, errorResponse } from "./lib/errors";
import { requireConfiguration } from "./middleware/config";
import { loadActor } from "./middleware/session";
import { jsonBodiesOnly, sameOriginOnly } from "./middleware/security";
import { securityHeadersMiddleware } from "./middleware/headers";
import { authRoutes } from "./routes/auth";
import { configRoutes } from "./routes/config";
import { contactRoutes } from "./routes/contact";
import { seoRoutes } from "./routes/seo";
import { devRoutes } from "./routes/dev";
import { favouriteRoutes } from "./routes/favourites";
import { homeRoutes } from "./routes/home";
import { listingRoutes } from "./routes/listings";
import { searchRoutes } from "./routes/search";
import { uploadRoutes } from "./routes/uploads";
import { imageRoutes } from "./routes/images";
import { meRoutes } from "./routes/me";
import { newsletterRoutes } from "./routes/newsletter";
import { pageRoutes } from "./routes/pages";
import { paymentRoutes } from "./routes/payments";
import { paymentWebhookRoutes } from "./routes/payment-webhooks";
import { analyticsRoutes } from "./routes/analytics";
import { devAnalyticsRoutes } from "./routes/dev-analytics";
import { savedSearchRoutes } from "./routes/saved-searches";
import { devSavedSearchRoutes } from "./routes/dev-saved-searches";
import { conversationRoutes } from "./routes/conversations";
import { testNotificationRoutes } from "./routes/test-notifications";
import { reportRoutes } from "./routes/reports";
import { moderationRoutes } from "./routes/moderation";
import { tradeOfferRoutes } from "./routes/trade-offers";
import { reviewRoutes } from "./routes/reviews";
import { userRoutes } from "./routes/users";

/** JSON bodies are small; uploads have their own limit on their own route. */
const JSON_BODY_LIMIT = 64 * 1024;

const api = new Hono<AppEnv>()
  // Provider webhooks authenticate by signature over the raw body, before any browser middleware.
  .route("/payments/webhooks", paymentWebhookRoutes)
  .use(sameOriginOnly)
  .use(loadActor)
  // Uploads carry raw image bytes with their own limit; everything after this is JSON only.
  .route("/images", uploadRoutes)
  .use(jsonBodiesOnly)
  .use(
    bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new AppError("PAYLOAD_TOO_LARGE", "Forespørselen er for stor.");
      },
    }),
  )
  .route("/home", homeRoutes)
  .route("/listings", listingRoutes)
  .route("/search", searchRoutes)
  .route("/favourites", favouriteRoutes)
  .route("/config", configRoutes)
  .route("/auth", authRoutes)
  .route("/me", meRoutes)
  .route("/newsletter", newsletterRoutes)
  .route("/contact", contactRoutes)
  .route("/payments", paymentRoutes)
  .route("/analytics", analyticsRoutes)
  .route("/saved-searches", savedSearchRoutes)
  .route("/dev/analytics", devAnalyticsRoutes)
  .route("/dev/saved-searches", devSavedSearchRoutes)
  .route("/dev", devRoutes)
  .route("/conversations", conversationRoutes)
  .route("/test-notifications", testNotificationRoutes)
  .route("/trade-offers", tradeOfferRoutes)
  .route("/reports", reportRoutes)
  .route("/moderation", moderationRoutes)
  .route("/reviews", reviewRoutes)
  .route("/users", userRoutes);

export const app = new Hono<AppEnv>()
  .use(securityHeadersMiddleware)
  .use(requireConfiguration)
  .route("/api", api)
  .route("/images", imageRoutes)
  .route("/dev", devRoutes)
  .all("/api/*", () => {
    throw new AppError("NOT_FOUND");
  })
  .route("/", seoRoutes)
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
