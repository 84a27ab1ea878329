// The payments' query keys and the chat's order query: apart from payments.ts so that a chat without
// an order loads these few lines, not every payment call (the chat's first load, decision 129).
import { queryOptions } from "@tanstack/react-query";
import { ORDER_EVENT } from "../../domain/chat";
import { chatKeys } from "./chat";
import { api, call } from "./client";

const orders = api.payments.orders;

export const paymentKeys = {
  stripeAccount: ["me", "payments", "stripe-account"] as const,
  records: (side: "purchases" | "sales") => ["me", "payments", side] as const,
  details: (sessionId: string) => ["me", "payments", "details", sessionId] as const,
  verify: (sessionId: string, paymentId: string) => ["me", "payments", "verify", sessionId, paymentId] as const,
  /** The chat invalidates ["conversations", "event", id, name] on a live event, so the card refetches. */
  conversationOrders: (conversationId: string) => chatKeys.event(conversationId, ORDER_EVENT),
  cases: ["moderation", "payment-cases"] as const,
};

export const conversationOrdersQuery = (conversationId: string) =>
  queryOptions({
    queryKey: paymentKeys.conversationOrders(conversationId),
    queryFn: ({ signal }) => call(orders.$get({ query: { conversation_id: conversationId } }, { init: { signal } })),
  });
