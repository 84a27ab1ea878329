import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { formatPhone, VIPPS_LOGIN_REFUSALS, VIPPS_LOGIN_TEXTS } from "../../../domain/vipps-login";
import { configQuery } from "../../api/shell";
import { startVippsLink, unlinkVipps, vippsKeys, vippsStatusQuery } from "../../api/vipps-login";
import { Button } from "../../components/ui/Button";
import { VIPPS_VERIFIED, VIPPS_VERIFIED_CLASSES } from "../../components/SellerCard";
import { toastSuccess } from "../../lib/toast";
import { PasswordDialog } from "./DataSection";

/**
 * "Vipps" on the profile (docs/decisions/128-vipps-login.md): a linked account shows the phone Vipps
 * verified and "Koble fra Vipps" (the password again; not for an account whose only way in is
 * Vipps); an unlinked one "Koble til Vipps" (the password, then Vipps).
 */
export function VippsSection() {
  const headingId = useId();
  const queryClient = useQueryClient();
  const { data: config } = useQuery(configQuery());
  const { data: status } = useQuery(vippsStatusQuery());
  if (!status || (!status.linked && !config?.vippsLogin)) return null;

  const link = async (password: string) => {
    const { url } = await startVippsLink(password);
    window.location.assign(url);
  };
  const unlink = async (password: string) => {
    await unlinkVipps(password);
    await queryClient.invalidateQueries({ queryKey: vippsKeys.status });
    toastSuccess("Vipps er koblet fra", VIPPS_LOGIN_TEXTS.unlinked);
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Vipps
      </h2>
      {status.linked ? (
        <>
          <p className="mt-1 text-stone-700">Kontoen din er koblet til Vipps, så du kan logge inn med Vipps.</p>
          {status.phone ? (
            <dl className="mt-3 grid gap-x-6 gap-y-1 sm:grid-cols-[max-content_1fr]">
              <dt className="text-sm font-medium text-stone-600">Telefon</dt>
              <dd className="flex flex-wrap items-center gap-2 text-stone-900">
                {formatPhone(status.phone)}
                {status.phone_verified ? <span className={VIPPS_VERIFIED_CLASSES}>{VIPPS_VERIFIED}</span> : null}
              </dd>
            </dl>
          ) : null}
          {status.has_password ? (
            <PasswordDialog
              trigger={
                <Button variant="secondary" size="sm" className="mt-4">
                  {VIPPS_LOGIN_TEXTS.unlinkButton}
                </Button>
              }
              title="Koble fra Vipps?"
              description={
                <p>
                  Du kan ikke lenger logge inn med Vipps, og «Verifisert med Vipps» forsvinner fra annonsene og profilen din. Skriv inn
                  passordet ditt for å bekrefte.
                </p>
              }
              confirmLabel="Koble fra"
              busyLabel="Kobler fra..."
              failureTitle="Kunne ikke koble fra Vipps"
              onConfirm={unlink}
            />
          ) : (
            <p className="mt-3 text-sm text-stone-700">{VIPPS_LOGIN_REFUSALS.noPassword}</p>
          )}
        </>
      ) : (
        <>
          <p className="mt-1 text-stone-700">
            Koble Vipps til kontoen, så kan du logge inn med Vipps, og kjøpere ser at telefonnummeret ditt er «Verifisert med Vipps».
          </p>
          <PasswordDialog
            trigger={<Button className="mt-4">{VIPPS_LOGIN_TEXTS.linkButton}</Button>}
            title="Koble til Vipps"
            description={<p>Skriv inn passordet ditt, så sender vi deg videre til Vipps.</p>}
            confirmLabel="Gå til Vipps"
            busyLabel="Sender deg til Vipps..."
            failureTitle="Kunne ikke koble til Vipps"
            onConfirm={link}
          />
        </>
      )}
    </section>
  );
}
