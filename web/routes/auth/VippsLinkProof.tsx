import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router-dom";
import { Link } from "../../components/Link";
import { passwordConfirmationSchema } from "../../../domain/schemas/account";
import { VIPPS_LOGIN_TEXTS } from "../../../domain/vipps-login";
import { applySignedIn, authKeys } from "../../api/auth";
import { isApiError } from "../../api/client";
import { mailVippsLink, proveVippsLinkWithPassword, vippsLinkQuery } from "../../api/vipps-login";
import { Button, buttonClasses } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { TextField } from "../../components/ui/TextField";
import { toastError, toastSuccess } from "../../lib/toast";

/**
 * The proof a matched account asks for before Vipps is linked to it (docs/decisions/128): its
 * password, or a link mailed to its address. The e-mail alone never signs anyone in.
 */
export function VippsLinkProof() {
  const { data, error, isPending } = useQuery(vippsLinkQuery());
  return (
    <section className="mx-auto w-full max-w-md px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900">Bekreft kontoen din</h1>
      {isPending ? (
        <Spinner label="Laster..." className="py-8" />
      ) : error || !data ? (
        <>
          <p role="alert" className="mt-3 font-medium text-stone-900">
            {isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen."}
          </p>
          <Link to="/auth" className={buttonClasses("primary", "md", "mt-6")}>
            Gå til innlogging
          </Link>
        </>
      ) : (
        <ProofForms email={data.email} />
      )}
    </section>
  );
}

function ProofForms({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [mailed, setMailed] = useState(false);

  const prove = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordConfirmationSchema.safeParse({ password });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setFieldError(undefined);
    try {
      const answer = await proveVippsLinkWithPassword(parsed.data.password);
      await queryClient.cancelQueries({ queryKey: authKeys.session });
      applySignedIn(queryClient, answer.session);
      navigate("/min-profil", { replace: true });
      toastSuccess("Vipps er koblet til", VIPPS_LOGIN_TEXTS.linked);
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && (err.fields?.password || err.code === "INVALID_CREDENTIALS" || err.code === "RATE_LIMITED")) {
        setFieldError(err.fields?.password ?? err.message);
      } else toastError("Kunne ikke koble til Vipps", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
    }
  };

  const mail = async () => {
    setBusy(true);
    try {
      await mailVippsLink();
      setMailed(true);
    } catch (err) {
      toastError("Kunne ikke sende e-posten", isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <p className="mt-2 text-stone-700">
        E-postadressen din i Vipps, <strong className="break-all text-stone-900">{email}</strong>, hører til en konto hos Lekebytte. Bekreft
        at kontoen er din, så kobler vi Vipps til den. Etterpå kan du logge inn med Vipps.
      </p>
      <form onSubmit={(event) => void prove(event)} noValidate className="mt-5 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-bold text-stone-900">Med passordet</h2>
        <TextField
          className="mt-3"
          label="Passord"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={fieldError}
          disabled={busy}
        />
        <Button type="submit" className="mt-4 w-full" disabled={busy}>
          Bekreft og koble til Vipps
        </Button>
      </form>
      <div className="mt-4 rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
        <h2 className="text-lg font-bold text-stone-900">Med en lenke på e-post</h2>
        {mailed ? (
          <p role="status" className="mt-2 text-stone-800">
            {VIPPS_LOGIN_TEXTS.linkMailSent}
          </p>
        ) : (
          <>
            <p className="mt-2 text-stone-700">Husker du ikke passordet? Vi sender en lenke til e-postadressen over.</p>
            <Button variant="secondary" className="mt-3 w-full" onClick={() => void mail()} disabled={busy}>
              Send meg en lenke
            </Button>
          </>
        )}
      </div>
      <p className="mt-5 text-center">
        <Link to="/auth" className="font-semibold text-brand-800 underline">
          Avbryt
        </Link>
      </p>
    </>
  );
}
