import { REQUEST_REFUSALS } from "../domain/errors";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "./env";
import { AppError, errorResponse } from "./lib/errors";
import { handleAppError } from "./lib/error-response";
import { traceRequest } from "./middleware/request-trace";
import { requireConfiguration } from "./middleware/config";
import { withDb } from "./middleware/db";
import { privateByDefault } from "./middleware/cache";
import { edgeCache, purgeAfterWrites } from "./middleware/edge-cache";
import { loadActor } from "./middleware/session";
import { jsonBodiesOnly, sameOriginOnly } from "./middleware/security";
import { securityHeadersMiddleware } from "./middleware/headers";
import { authRoutes } from "./features/auth/routes";
import { vippsAccountRoutes, vippsAuthRoutes } from "./features/auth/vipps-routes";
import { authFormRoutes } from "./features/auth/form-routes";
import { configRoutes } from "./features/shell/config-routes";
import { contactRoutes } from "./features/contact/routes";
import { seoRoutes } from "./features/seo/routes";
import { devRoutes } from "./features/mail/dev-routes";
import { favouriteRoutes } from "./features/favourites/routes";
import { homeRoutes } from "./features/listings/home-routes";
import { listingRoutes } from "./features/listings/routes";
import { searchRoutes } from "./features/search/routes";
import { uploadRoutes } from "./features/listings/upload-routes";
import { problemPhotoRoutes } from "./features/payments/problem-photo-routes";
import { imageRoutes } from "./features/listings/image-routes";
import { meRoutes } from "./features/account/routes";
import { meSecurityRoutes } from "./features/account/security-routes";
import { newsletterRoutes } from "./features/newsletter/routes";
import { pageRoutes } from "./features/shell/routes";
import { paymentRoutes } from "./features/payments/routes";
import { paymentWebhookRoutes } from "./features/payments/webhook-routes";
import { shipmentOrderRoutes, shippingRoutes } from "./features/shipping/routes";
import { shippingWebhookRoutes } from "./features/shipping/webhook-routes";
import { analyticsRoutes } from "./features/analytics/routes";
import { devAnalyticsRoutes } from "./features/analytics/dev-routes";
import { savedSearchRoutes } from "./features/saved-searches/routes";
import { devSavedSearchRoutes } from "./features/saved-searches/dev-routes";
import { devD1UsageRoutes } from "./dev-routes";
import { devCronRoutes } from "./cron/dev-routes";
import { conversationRoutes } from "./features/chat/routes";
import { testNotificationRoutes } from "./features/chat/test-notification-routes";
import { reportRoutes } from "./features/moderation/report-routes";
import { moderationRoutes } from "./features/moderation/routes";
import { adminRoutes } from "./features/admin/routes";
import { tradeOfferRoutes } from "./features/trades/routes";
import { giveawayRoutes } from "./features/giveaways/routes";
import { reviewRoutes } from "./features/reviews/routes";
import { userRoutes } from "./features/account/user-routes";
import { localOnly } from "./middleware/local-only";
import { openApiDocument } from "./lib/openapi";

/** JSON bodies are small; uploads have their own limit on their own route. */
const JSON_BODY_LIMIT = 64 * 1024;

const api = new Hono<AppEnv>()
  // A write that changes what visitors see purges the edge cache before its answer goes out (decision 101).
  .use(purgeAfterWrites)
  // Provider webhooks authenticate by signature over the raw body, before any browser middleware.
  .route("/payments/webhooks", paymentWebhookRoutes)
  .route("/shipping/webhooks", shippingWebhookRoutes)
  .use(sameOriginOnly)
  .use(loadActor)
  // Uploads carry raw image bytes with their own limit; everything after this is JSON only.
  .route("/images", uploadRoutes)
  .route("/payments/orders", problemPhotoRoutes)
  // Sign-in and "Glemt passord?" as plain forms, for pages used before or without JavaScript (decision 126).
  .route("/auth", authFormRoutes)
  .use(jsonBodiesOnly)
  .use(
    bodyLimit({
      maxSize: JSON_BODY_LIMIT,
      onError: () => {
        throw new AppError("PAYLOAD_TOO_LARGE", REQUEST_REFUSALS.tooLarge);
      },
    }),
  )
  .route("/home", homeRoutes)
  .route("/listings", listingRoutes)
  .route("/search", searchRoutes)
  .route("/favourites", favouriteRoutes)
  .route("/config", configRoutes)
  .route("/auth/vipps", vippsAuthRoutes)
  .route("/auth", authRoutes)
  .route("/me/vipps", vippsAccountRoutes)
  .route("/me", meRoutes)
  .route("/me", meSecurityRoutes)
  .route("/newsletter", newsletterRoutes)
  .route("/contact", contactRoutes)
  .route("/payments/orders", shipmentOrderRoutes)
  .route("/payments", paymentRoutes)
  .route("/shipping", shippingRoutes)
  .route("/analytics", analyticsRoutes)
  .route("/saved-searches", savedSearchRoutes)
  .route("/dev/analytics", devAnalyticsRoutes)
  .route("/dev/saved-searches", devSavedSearchRoutes)
  .route("/dev/d1-usage", devD1UsageRoutes)
  .route("/dev/cron", devCronRoutes)
  .route("/dev", devRoutes)
  .route("/conversations", conversationRoutes)
  .route("/test-notifications", testNotificationRoutes)
  .route("/trade-offers", tradeOfferRoutes)
  .route("/giveaways", giveawayRoutes)
  .route("/reports", reportRoutes)
  .route("/moderation", moderationRoutes)
  .route("/admin", adminRoutes)
  .route("/reviews", reviewRoutes)
  .route("/users", userRoutes);

export const app = new Hono<AppEnv>()
  // The request id, and what the request's log line needs (docs/decisions/133-request-logs.md).
  .use(traceRequest)
  .use(securityHeadersMiddleware)
  .use(requireConfiguration)
  .use(withDb)
  .use(privateByDefault)
  // Anonymous first screens and their APIs from caches.default (docs/decisions/101-edge-cache.md).
  .use(edgeCache)
  .route("/api", api)
  .route("/images", imageRoutes)
  .route("/dev", devRoutes)
  // The API reference, made from the routes (docs/api-reference.md is the same document as text).
  .get("/api/openapi.json", localOnly, (c) => c.json(openApiDocument(api)))
  .all("/api/*", () => {
    throw new AppError("NOT_FOUND");
  })
  .route("/", seoRoutes)
  .route("/", pageRoutes);

app.onError(handleAppError);

app.notFound((c) => errorResponse(c, new AppError("NOT_FOUND")));

export type AppType = typeof api;
