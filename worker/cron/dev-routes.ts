import { Hono } from "hono";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { noStore } from "../middleware/cache";
import { localOnly } from "../middleware/local-only";
import { CRON_STEPS } from "./scheduled";

/**
 * Local mode only (404 elsewhere): one step of the hourly cron, run as if the clock showed `at`
 * (ISO; now when absent), for `npm run bench:durability`, which moves the clock past the 48 hours a
 * delivered parcel's buyer has (decision 153). One step, not the whole cron: the others would act on
 * the bench's own rows at that moment too (its held webhooks' payments, its sessions).
 */
export const devCronRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .use(noStore)
  .post("/:step", async (c) => {
    const step = CRON_STEPS.find((s) => s.name === c.req.param("step"));
    if (!step) throw new AppError("NOT_FOUND", "Fant ikke dette steget i cron-jobben.");
    const body = (await c.req.json().catch(() => ({}))) as { at?: unknown } | null;
    const at = body?.at === undefined ? new Date() : new Date(typeof body.at === "string" ? body.at : Number.NaN);
    if (Number.isNaN(at.getTime()))
      throw new AppError("VALIDATION", "Ugyldig tidspunkt: bruk ISO 8601, for eksempel 2026-12-01T12:00:00Z.");
    const started = Date.now();
    const result = await step.run(c.env, at, c.env.APP_ORIGIN.replace(/\/$/, ""));
    return c.json({ step: step.name, at: at.toISOString(), ms: Date.now() - started, result: result ?? null });
  });
