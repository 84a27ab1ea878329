import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { validate } from "../../lib/validate";
import { noStore } from "../../middleware/cache";
import { localOnly } from "../../middleware/local-only";
import { z } from "../../../domain/schemas/zod";
import { carrierPortFor } from "./booking-queue";
import { runShipmentCron } from "./shipment-cron";

const cronSchema = z.object({ at: z.iso.datetime({ error: "Oppgi tidspunktet som en ISO-dato" }) });

/**
 * Local mode only (404 elsewhere): the cron's shipping step run as if it were `at`, so a test or a
 * tester sees what a missed drop-off deadline or ten silent days do without waiting for them.
 */
export const devShipmentRoutes = new Hono<AppEnv>()
  .use(localOnly)
  .use(noStore)
  .post("/cron", validate("json", cronSchema), async (c) =>
    c.json(await runShipmentCron(c.env, new Date(c.req.valid("json").at), carrierPortFor(c.env))),
  );
