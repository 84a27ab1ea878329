import { Hono } from "hono";
import { z } from "../../domain/schemas/zod";
import type { AppEnv } from "../env";
import { AppError } from "../lib/errors";
import { validate } from "../lib/validate";
import { noStore } from "../middleware/cache";
import { localOnly } from "../middleware/local-only";
import { CRON_STEPS } from "./scheduled";

const cronSchema = z.object({ at: z.iso.datetime({ error: "Oppgi tidspunktet som en ISO-dato" }).optional() });

/**
 * Local mode only (404 elsewhere): one step of the hourly cron, run as if the clock showed `at` (now
 * when absent), for `npm run bench:durability`, which moves the clock past the 48 hours a delivered
 * parcel's buyer has (decision 153). One step, not the whole cron: the others would act on the
 * bench's own rows at that moment too (its held webhooks' payments, its sessions).
 */
export const devCronRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .use(noStore)
  .post("/:step", validate("json", cronSchema), async (c) => {
    const step = CRON_STEPS.find((s) => s.name === c.req.param("step"));
    if (!step) throw new AppError("NOT_FOUND", "Fant ikke dette steget i cron-jobben.");
    const { at: iso } = c.req.valid("json");
    const at = iso ? new Date(iso) : new Date();
    const started = Date.now();
    const result = await step.run(c.env, at, c.env.APP_ORIGIN.replace(/\/$/, ""));
    return c.json({ step: step.name, at: at.toISOString(), ms: Date.now() - started, result: result ?? null });
  });
