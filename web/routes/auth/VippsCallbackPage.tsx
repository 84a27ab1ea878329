import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { VIPPS_LOGIN_TEXTS } from "../../../domain/vipps-login";
import { applySignedIn, authKeys } from "../../api/auth";
import { isApiError } from "../../api/client";
import { confirmVippsLinkOnce, vippsCallbackOnce, vippsKeys, type VippsSignedIn } from "../../api/vipps-login";
import { Spinner } from "../../components/ui/Spinner";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { toastSuccess } from "../../lib/toast";
import { SignInFailed } from "./CallbackPage";
import { VippsLinkProof } from "./VippsLinkProof";

type State = { status: "loading" } | { status: "prove" } | { status: "error"; reason: string };

const FALLBACK_REASON = "Noe gikk galt. Prøv igjen.";
const TITLES: Record<State["status"], string> = {
  loading: "Logger inn med Vipps",
  prove: "Bekreft kontoen din",
  error: "Innloggingen med Vipps mislyktes",
};

/**
 * /auth/vipps: where Vipps sends the browser back (`code` and `state`, or `error`), and where the
 * link mailed to a matched account lands (`koble`). Signed in: on to where the login started (or
 * the front page); linked from the profile: back to it; a matched account: the proof
 * (VippsLinkProof), at `?bekreft=1` so a reload finds it again (docs/decisions/128-vipps-login.md).
 */
export function VippsCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const state = params.get("state");
  const code = params.get("code");
  const error = params.get("error");
  const mailCode = params.get("koble");
  const [view, setView] = useState<State>(() => {
    if (params.get("bekreft") === "1") return { status: "prove" };
    if (mailCode || (state && (code || error))) return { status: "loading" };
    return { status: "error", reason: "Mangler kode i URL." };
  });
  useDocumentTitle(TITLES[view.status]);

  useEffect(() => {
    if (view.status !== "loading") return;
    let active = true;
    const signedIn = async (answer: VippsSignedIn, to: string) => {
      // The page load's own session check (still signed out) must not overwrite the new session.
      await queryClient.cancelQueries({ queryKey: authKeys.session });
      applySignedIn(queryClient, answer.session);
      if (!active) return;
      navigate(to, { replace: true });
    };
    const failed = (err: unknown) => {
      if (active) setView({ status: "error", reason: isApiError(err) && err.message ? err.message : FALLBACK_REASON });
    };
    if (mailCode) {
      confirmVippsLinkOnce(mailCode).then(async (answer) => {
        await signedIn(answer, "/min-profil");
        toastSuccess("Vipps er koblet til", VIPPS_LOGIN_TEXTS.linked);
      }, failed);
    } else if (state) {
      vippsCallbackOnce({ state, ...(code ? { code } : { error: error ?? "server_error" }) }).then(async (answer) => {
        if (answer.status === "signed_in") {
          await signedIn(answer, answer.next ?? "/");
          toastSuccess("Velkommen tilbake!", "Du er nå logget inn.");
        } else if (answer.status === "linked") {
          await queryClient.invalidateQueries({ queryKey: vippsKeys.status });
          if (active) navigate("/profile", { replace: true });
          toastSuccess("Vipps er koblet til", answer.message);
        } else if (active) {
          // The code and state are spent: the URL no longer carries them, and a reload asks the Worker again.
          queryClient.setQueryData(vippsKeys.link, { email: answer.email });
          navigate("/auth/vipps?bekreft=1", { replace: true });
          setView({ status: "prove" });
        }
      }, failed);
    }
    return () => {
      active = false;
    };
  }, [view.status, mailCode, state, code, error, navigate, queryClient]);

  if (view.status === "prove") return <VippsLinkProof />;
  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      {view.status === "loading" ? (
        <>
          <h1 className="sr-only">Logger inn med Vipps</h1>
          <Spinner label="Logger inn med Vipps..." className="py-8" />
        </>
      ) : (
        <SignInFailed title="Innloggingen med Vipps mislyktes" reason={view.reason} />
      )}
    </section>
  );
}
