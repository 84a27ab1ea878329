// Dates and times show Europe/Oslo whatever the device's time zone (docs/style.md "Texts and formats"):
// every formatter the web uses, and the chat bubble, run with the process's zone set to UTC and to
// Europe/Oslo (vi.stubEnv assigns process.env.TZ, which Node re-reads for Date and Intl alike).
import { render, screen } from "@testing-library/react";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { chatDayLabel, groupByOsloDay, messageTime } from "../../domain/chat-days";
import { currentYear, formatDate, osloDay, relativeTime } from "../../domain/format";
import { formatLongDay, formatShortDay } from "../../web/analytics/stats/format";
import { MessageBubble } from "../../web/routes/chat/MessageBubble";
import { exportFileName } from "../../web/routes/profile/downloadMyData";
import { chatMessageBody } from "../factories/api";

// 23:30 UTC on 2 March is 00:30 on 3 March in Oslo (winter time, UTC+1); in summer Oslo is UTC+2.
const LATE_WINTER = "2026-03-02T23:30:00.000Z";
const LATE_SUMMER = "2026-07-14T22:15:00.000Z";
const NEW_YEAR_EVE = "2026-12-31T23:10:00.000Z";

describe.each(["UTC", "Europe/Oslo"])("with the device's time zone %s", (zone) => {
  beforeAll(() => {
    vi.stubEnv("TZ", zone);
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it("really runs in that zone", () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe(zone);
    // The device's own clock reading differs between the two zones for the same instant.
    expect(new Date(LATE_WINTER).getHours()).toBe(zone === "UTC" ? 23 : 0);
  });

  it("dates are Oslo calendar days", () => {
    expect(formatDate(LATE_WINTER)).toBe("3. mars 2026");
    expect(formatDate(new Date(LATE_SUMMER))).toBe("15. juli 2026");
    expect(osloDay(new Date(LATE_WINTER))).toBe("2026-03-03");
    expect(osloDay(new Date(LATE_SUMMER))).toBe("2026-07-15");
    expect(currentYear(new Date(NEW_YEAR_EVE))).toBe(2027);
  });

  it("chat times and day labels are Oslo's", () => {
    expect(messageTime(LATE_WINTER)).toBe("00:30");
    expect(messageTime(LATE_SUMMER)).toBe("00:15");
    const now = new Date("2026-03-03T10:00:00.000Z");
    expect(chatDayLabel(LATE_WINTER, now)).toBe("I dag");
    expect(chatDayLabel("2026-03-02T22:30:00.000Z", now)).toBe("I går");
    expect(chatDayLabel("2026-03-01T22:59:00.000Z", now)).toBe("1. mars 2026");
    const groups = groupByOsloDay(["2026-03-02T22:30:00.000Z", LATE_WINTER], (at) => at, now);
    expect(groups.map((g) => [g.day, g.label])).toEqual([
      ["2026-03-02", "I går"],
      ["2026-03-03", "I dag"],
    ]);
  });

  it("relative times fall back to the Oslo date after a week", () => {
    expect(relativeTime(LATE_WINTER, new Date("2026-03-03T00:00:00.000Z"))).toBe("Akkurat nå");
    expect(relativeTime(LATE_WINTER, new Date("2026-03-20T12:00:00.000Z"))).toBe("3. mars 2026");
  });

  it("the statistics' days stay the day the server counted (Oslo YYYY-MM-DD)", () => {
    expect(formatShortDay("2026-03-03")).toBe("3. mars");
    expect(formatLongDay("2026-03-03")).toBe("tirsdag 3. mars");
  });

  it("the data export is named after the Oslo date", () => {
    expect(exportFileName(new Date(LATE_WINTER))).toBe("lekebytte-mine-data-2026-03-03.json");
  });

  it("a chat bubble shows the Oslo time", () => {
    render(
      <ul>
        <MessageBubble
          message={chatMessageBody({ created_at: LATE_SUMMER, content: "Sent på kvelden" })}
          own={false}
          otherName="Ola"
          onReport={() => undefined}
        />
      </ul>,
    );
    const time = screen.getByText("00:15");
    expect(time.tagName).toBe("TIME");
    expect(time.getAttribute("datetime")).toBe(LATE_SUMMER);
  });
});
