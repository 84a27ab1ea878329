// Norwegian default messages for every zod schema (worker and web), so a rule without its own
// message never shows English to a user.
import { z } from "zod";
import no from "zod/v4/locales/no.js";

z.config(no());

export { z };
