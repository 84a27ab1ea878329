import { z } from "./zod";

export const sendMessageSchema = z.object({
  id: z.uuid(), // client-generated so a retried send is stored once (SECURITY "Nothing lost")
  content: z.string().trim().min(1, "Meldingen kan ikke være tom").max(4000),
});

export const tradeOfferSchema = z.object({
  offered_listing_id: z.uuid({ error: "Velg hva du vil tilby i bytte" }),
  message: z.string().trim().max(2000).nullish().transform((v) => (v ? v : null)),
});
