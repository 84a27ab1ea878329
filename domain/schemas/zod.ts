// Norwegian default messages for every zod schema (worker and web), so a rule without its own
// message never shows English to a user.
import { z } from "zod";
import no from "zod/v4/locales/no.js";

z.config(no());
// No compiled fast path: zod would probe `new Function` for it, which the Worker forbids and the
// web's Content-Security-Policy (no 'unsafe-eval') reports as a violation on every page that parses
// a form. Set here, before any schema is built: object schemas read the flag when constructed.
z.config({ jitless: true });

export { z };
