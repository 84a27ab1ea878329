// The admin feature: the operator's page /admin/drift (docs/decisions/134-operations-page.md).
import { queryOptions } from "@tanstack/react-query";
import { api, call, type ResponseBody as Body } from "./client";

/** GET /api/admin/drift: what the operator's page shows. */
export type DriftReport = Body<typeof api.admin.drift.$get>;

export const adminKeys = {
  all: ["admin"] as const,
  drift: ["admin", "drift"] as const,
};

export const driftQuery = () =>
  queryOptions({
    queryKey: adminKeys.drift,
    queryFn: ({ signal }) => call(api.admin.drift.$get(undefined, { init: { signal } })),
    // A 403 is final; any other failure is shown at once ("Oppdater" asks again).
    retry: false,
  });
