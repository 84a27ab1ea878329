// Chat rules in domain/ (docs/product.md "Messages and chat", "Validation"): day labels in Europe/Oslo, times, the length cap.
import { describe, expect, it } from "vitest";
import { chatDayLabel, groupByOsloDay, messageTime } from "../../domain/chat-days";
import { MESSAGE_MAX_LENGTH, reconnectDelay } from "../../domain/chat";
import { messageLength, sendMessageSchema } from "../../domain/schemas/chat";

describe("chat day labels (Oslo calendar days)", () => {
  it.each([
    { at: "2026-03-11T09:00:00Z", now: "2026-03-11T10:00:00Z", label: "I dag" },
    // 23:30 UTC on the 10th is 00:30 on the 11th in Oslo (CET).
    { at: "2026-03-10T23:30:00Z", now: "2026-03-11T10:00:00Z", label: "I dag" },
    { at: "2026-03-10T22:30:00Z", now: "2026-03-11T10:00:00Z", label: "I går" },
    { at: "2026-03-09T12:00:00Z", now: "2026-03-11T10:00:00Z", label: "9. mars 2026" },
    // Across the spring DST change (29 March 2026).
    { at: "2026-03-28T12:00:00Z", now: "2026-03-29T12:00:00Z", label: "I går" },
    // New Year's Eve late evening, seen just after midnight.
    { at: "2026-12-31T22:00:00Z", now: "2026-12-31T23:10:00Z", label: "I går" },
    { at: "2026-12-30T22:00:00Z", now: "2026-12-31T23:10:00Z", label: "30. desember 2026" },
    // Summer (CEST): 22:30 UTC is 00:30 the next day.
    { at: "2026-07-14T22:30:00Z", now: "2026-07-15T08:00:00Z", label: "I dag" },
  ])("$at seen at $now is '$label'", ({ at, now, label }) => {
    expect(chatDayLabel(at, new Date(now))).toBe(label);
  });

  it("times are Oslo wall-clock times", () => {
    expect(messageTime("2026-03-10T23:30:00Z")).toBe("00:30");
    expect(messageTime("2026-07-14T12:05:00Z")).toBe("14:05");
  });

  it("groups consecutive messages by day, keeping their order", () => {
    const items = ["2026-03-10T10:00:00Z", "2026-03-10T22:59:00Z", "2026-03-10T23:01:00Z", "2026-03-11T09:00:00Z"].map((created_at, i) => ({
      i,
      created_at,
    }));
    const groups = groupByOsloDay(items, (m) => m.created_at, new Date("2026-03-11T10:00:00Z"));
    expect(groups.map((g) => [g.label, g.items.map((m) => m.i)])).toEqual([
      ["I går", [0, 1]],
      ["I dag", [2, 3]],
    ]);
  });
});

describe("message length", () => {
  it("counts characters as people do", () => {
    expect(messageLength("hei")).toBe(3);
    expect(messageLength("🧸🚂")).toBe(2);
    expect(messageLength("æøå")).toBe(3);
  });

  it("the schema trims and caps at 2,000 characters", () => {
    expect(MESSAGE_MAX_LENGTH).toBe(2000);
    const id = crypto.randomUUID();
    expect(sendMessageSchema.parse({ id, content: "  hei  " })).toEqual({ id, content: "hei" });
    expect(sendMessageSchema.safeParse({ id, content: "a".repeat(2000) }).success).toBe(true);
    expect(sendMessageSchema.safeParse({ id, content: "a".repeat(2001) }).success).toBe(false);
    expect(sendMessageSchema.safeParse({ id, content: "   " }).success).toBe(false);
    expect(sendMessageSchema.safeParse({ id: "nope", content: "hei" }).success).toBe(false);
  });
});

it("reconnects after 1, 2, 5, then every 10 seconds", () => {
  expect([0, 1, 2, 3, 4, 9].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10000, 10000, 10000]);
});
