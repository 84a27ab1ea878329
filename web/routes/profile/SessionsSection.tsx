import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Laptop, Smartphone, Tablet } from "lucide-react";
import { useId, useState } from "react";
import { relativeTime } from "../../../domain/format";
import { accountKeys, endSession, sessionsQuery, signOutOtherSessions, type Device } from "../../api/account";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { toastError, toastSuccess } from "../../lib/toast";
import { ErrorCode } from "../../components/ErrorCode";

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(["nb"], { type: "region" });
  } catch {
    return null;
  }
})();

/** "Bergen, Norge": the platform's guess at where the device was, when it has one. */
export function placeOf(device: Pick<Device, "city" | "country">): string | null {
  let country: string | null = null;
  try {
    country = device.country ? (regionNames?.of(device.country) ?? device.country) : null;
  } catch {
    country = device.country;
  }
  return [device.city, country].filter(Boolean).join(", ") || null;
}

function deviceName(device: Device): string {
  if (device.browser && device.system) return `${device.browser} på ${device.system}`;
  return device.browser ?? device.system ?? "Ukjent nettleser";
}

function DeviceIcon({ kind }: { kind: Device["kind"] }) {
  const Icon = kind === "mobile" ? Smartphone : kind === "tablet" ? Tablet : Laptop;
  return <Icon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-stone-600" />;
}

/**
 * "Innlogget på" (docs/product.md "Profile"): every device signed in to the account, with "Logg ut"
 * for each other one and "Logg ut alle andre". Ending a session closes its chat at once.
 */
export function SessionsSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const { data: devices, isPending, isError, error } = useQuery(sessionsQuery());
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (key: string, action: () => Promise<void>, done: string) => {
    setBusy(key);
    try {
      await action();
      toastSuccess(done);
    } catch (err) {
      toastError("Kunne ikke logge ut", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
    } finally {
      setBusy(null);
      void queryClient.invalidateQueries({ queryKey: accountKeys.sessions });
    }
  };

  const others = devices?.filter((d) => !d.current) ?? [];
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Innlogget på
      </h2>
      {isPending ? (
        <Spinner label="Laster enheter..." className="py-4" />
      ) : isError ? (
        <>
          <p className="mt-2 text-stone-700">Kunne ikke hente enhetene. Last siden på nytt.</p>
          <ErrorCode error={error} className="mt-1" />
        </>
      ) : (
        <>
          <ul className="mt-3 divide-y divide-stone-200">
            {devices.map((device) => {
              const place = placeOf(device);
              return (
                <li key={device.id} className="flex flex-wrap items-start gap-3 py-3" data-testid="device">
                  <DeviceIcon kind={device.kind} />
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold text-stone-900">{deviceName(device)}</p>
                    <p className="text-sm text-stone-700">
                      {[place, device.current ? "Denne enheten" : `Sist aktiv: ${relativeTime(device.last_seen_at)}`]
                        .filter(Boolean)
                        .join(" · ")}
                    </p>
                  </div>
                  {device.current ? null : (
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={busy !== null}
                      aria-label={`Logg ut ${deviceName(device)}`}
                      onClick={() => void run(device.id, () => endSession(device.id), "Enheten er logget ut")}
                    >
                      {busy === device.id ? "Logger ut..." : "Logg ut"}
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          {others.length > 0 ? (
            <Button
              variant="secondary"
              size="sm"
              className="mt-2"
              disabled={busy !== null}
              onClick={() => void run("others", signOutOtherSessions, "Du er logget ut på alle andre enheter")}
            >
              {busy === "others" ? "Logger ut..." : "Logg ut alle andre"}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
