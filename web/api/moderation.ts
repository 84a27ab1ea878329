// The moderation feature: reports and the moderation dashboard through the typed client
// (docs/decisions/050-moderation.md). The user's own notices (/api/me/moderation) are in account.ts.
import { queryOptions } from "@tanstack/react-query";
import type { ModerationAction, ReportStatus, ReportTargetType } from "../../domain/moderation";
import type { ReportInput } from "../../domain/schemas/content";
import type { Role } from "../../domain/roles";
import { api, call, type ResponseBody as Body } from "./client";

/** GET /api/moderation/reports: one page of cards for a status. */
export type ModerationPage = Body<typeof api.moderation.reports.$get>;
export type ModerationCard = ModerationPage["items"][number];
export type StaffMember = Body<typeof api.moderation.staff.$get>[number];

const param = (value: string) => encodeURIComponent(value);

export const moderationKeys = {
  all: ["moderation"] as const,
  reports: (status: ReportStatus) => ["moderation", "reports", status] as const,
  staff: ["moderation", "staff"] as const,
};

export function fileReport(json: ReportInput) {
  return call(api.reports.$post({ json }));
}

export function moderationPage(status: ReportStatus, offset: number, signal?: AbortSignal) {
  return call(api.moderation.reports.$get({ query: { status, offset: String(offset) } }, { init: { signal } }));
}

export function reviewReport(id: string) {
  return call(api.moderation.reports[":id"].review.$post({ param: { id: param(id) } }));
}

export function takeAction(id: string, json: { action: ModerationAction; notes: string | null; suspension_days?: number }) {
  return call(api.moderation.reports[":id"].actions.$post({ param: { id: param(id) }, json }));
}

export function dismissReport(id: string, notes: string | null) {
  return call(api.moderation.reports[":id"].dismiss.$post({ param: { id: param(id) }, json: { notes } }));
}

export function unhideTarget(type: ReportTargetType, id: string, notes: string | null) {
  return call(api.moderation.targets[":type"][":id"].unhide.$post({ param: { type, id: param(id) }, json: { notes } }));
}

export const staffQuery = () =>
  queryOptions({
    queryKey: moderationKeys.staff,
    queryFn: ({ signal }) => call(api.moderation.staff.$get(undefined, { init: { signal } })),
  });

export function changeRole(email: string, role: Role) {
  return call(api.moderation.roles.$put({ json: { email, role } }));
}
