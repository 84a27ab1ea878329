import { useQuery, useQueryClient } from "@tanstack/react-query";
import { CircleAlert, CircleCheck, ShieldAlert } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useSearchParams } from "react-router-dom";
import { Link } from "../../components/Link";
import { applySignedOut, confirmEmailChange, stopEmailChange } from "../../api/auth";
import { isApiError } from "../../api/client";
import { Button, buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

function Outcome({ ok, title, children }: { ok: boolean; title: string; children: ReactNode }) {
  const Icon = ok ? CircleCheck : CircleAlert;
  return (
    <div className="mx-auto max-w-md px-4 py-10 text-center">
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <Icon aria-hidden="true" className={ok ? "mx-auto size-10 text-emerald-700" : "mx-auto size-10 text-red-700"} />
        <h1 className="mt-3 text-2xl font-extrabold text-stone-900">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/**
 * /auth/bekreft-epost?token=…: the new address's link. Opening it (a person, not a link checker
 * that only fetches the address) moves the account to the new address.
 */
export function ConfirmEmailPage() {
  const token = useSearchParams()[0].get("token") ?? "";
  const result = useQuery({
    queryKey: ["email-change-confirm", token],
    queryFn: () => confirmEmailChange(token),
    enabled: token !== "",
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
    refetchOnWindowFocus: false,
  });
  useDocumentTitle(result.isSuccess ? "E-postadressen er endret" : "Bekreft e-postadresse");
  if (token !== "" && result.isPending) return <Spinner label="Bekrefter e-postadressen..." className="py-16" />;
  if (result.isSuccess) {
    return (
      <Outcome ok title="E-postadressen er endret">
        <p role="status" className="mt-2 break-words text-stone-700">
          Kontoen din bruker nå <strong>{result.data.email}</strong>. Logg inn med den nye adressen fra nå av.
        </p>
        <Link to="/min-profil" className={buttonClasses("primary", "md", "mt-6")}>
          Gå til profilen
        </Link>
      </Outcome>
    );
  }
  return (
    <Outcome ok={false} title="Kunne ikke bekrefte e-postadressen">
      <p role="alert" className="mt-2 text-stone-700">
        {token === "" ? "Lenken mangler kode." : result.error?.message}
      </p>
      <p className="mt-2 text-stone-700">Du kan be om en ny lenke under «Endre e-post» på profilen din.</p>
      <Link to="/min-profil" className={buttonClasses("primary", "md", "mt-6")}>
        Gå til profilen
      </Link>
    </Outcome>
  );
}

type StopState = { status: "asking" } | { status: "busy" } | { status: "done"; email: string } | { status: "error"; reason: string };

/**
 * /auth/stopp-epostendring?token=…: the old address's link. It acts only on a press: stopping ends
 * every session of the account, which a link checker must never do by fetching the page.
 */
export function StopEmailChangePage() {
  useDocumentTitle("Stopp endring av e-postadresse");
  const token = useSearchParams()[0].get("token") ?? "";
  const queryClient = useQueryClient();
  const [state, setState] = useState<StopState>(() => (token ? { status: "asking" } : { status: "error", reason: "Lenken mangler kode." }));

  const stop = async () => {
    setState({ status: "busy" });
    try {
      const result = await stopEmailChange(token);
      // Every session of the account has ended, this browser's too if it was signed in to it.
      applySignedOut(queryClient);
      setState({ status: "done", email: result.email });
    } catch (err) {
      setState({ status: "error", reason: isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen." });
    }
  };

  if (state.status === "done") {
    return (
      <Outcome ok title="Endringen er stoppet">
        <p role="status" className="mt-2 break-words text-stone-700">
          Kontoen bruker <strong>{state.email}</strong>, og alle innlogginger er logget ut. Lag et nytt passord nå, i tilfelle noen andre
          kjenner det.
        </p>
        <Link to="/auth/glemt-passord" className={buttonClasses("primary", "md", "mt-6")}>
          Lag nytt passord
        </Link>
      </Outcome>
    );
  }
  if (state.status === "error") {
    return (
      <Outcome ok={false} title="Kunne ikke stoppe endringen">
        <p role="alert" className="mt-2 text-stone-700">
          {state.reason}
        </p>
        <Link to="/auth/glemt-passord" className={buttonClasses("primary", "md", "mt-6")}>
          Lag nytt passord
        </Link>
      </Outcome>
    );
  }
  return (
    <div className="mx-auto max-w-md px-4 py-10 text-center">
      <div className="rounded-2xl border border-stone-200 bg-white p-6 shadow-sm">
        <ShieldAlert aria-hidden="true" className="mx-auto size-10 text-accent-900" />
        <h1 className="mt-3 text-2xl font-extrabold text-stone-900">Stoppe endringen av e-postadressen?</h1>
        <p className="mt-2 text-stone-700">
          Ba du ikke om å endre e-postadressen? Da stopper vi endringen (eller setter den gamle adressen tilbake), og alle som er logget inn
          på kontoen, blir logget ut.
        </p>
        <Button className="mt-6 w-full" disabled={state.status === "busy"} onClick={() => void stop()}>
          {state.status === "busy" ? "Stopper..." : "Stopp endringen"}
        </Button>
      </div>
    </div>
  );
}
