import { GIVEAWAY_MESSAGE_MAX_LENGTH } from "../giveaways";
import { messageLength } from "./chat";
import { multiLineText } from "./user-text";
import { z } from "./zod";

export const GIVEAWAY_MESSAGE_REQUIRED_TEXT = "Skriv en kort melding til giveren";
export const GIVEAWAY_MESSAGE_TOO_LONG_TEXT = `Meldingen kan ikke være lengre enn ${GIVEAWAY_MESSAGE_MAX_LENGTH} tegn`;

/** "Jeg vil ha den": a short message to the giver, cleaned and trimmed. The taker, the place and the status are the server's. */
export const joinGiveawaySchema = z.object({
  message: multiLineText(GIVEAWAY_MESSAGE_REQUIRED_TEXT).pipe(
    z
      .string()
      .trim()
      .min(1, GIVEAWAY_MESSAGE_REQUIRED_TEXT)
      .refine((text) => messageLength(text) <= GIVEAWAY_MESSAGE_MAX_LENGTH, GIVEAWAY_MESSAGE_TOO_LONG_TEXT),
  ),
});

/** "Reserver" for one person, or without `entry_id` ("Første i køen") for whoever is first in line. */
export const reserveGiveawaySchema = z.object({
  entry_id: z.uuid({ error: "Ugyldig køplass" }).optional(),
});
