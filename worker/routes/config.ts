import { Hono } from "hono";
import type { AppEnv } from "../env";

/** Public site configuration the SPA needs (footer, contact page). */
export const configRoutes = new Hono<AppEnv>().get("/", (c) => {
  c.header("Cache-Control", "public, max-age=300");
  return c.json({
    appName: c.env.APP_NAME,
    contactEmail: c.env.CONTACT_EMAIL,
    contactPhone: c.env.CONTACT_PHONE,
    contactAddress: c.env.CONTACT_ADDRESS,
  });
});
