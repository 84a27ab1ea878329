import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { Download, Trash2 } from "lucide-react";
import { useId, useState, type FormEvent, type ReactNode } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { passwordConfirmationSchema } from "../../../domain/schemas/account";
import { deleteAccount } from "../../api/account";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/TextField";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";
import { leaveSignedOut } from "../../lib/useSignOut";
import { downloadMyData } from "./downloadMyData";

/**
 * "Dine data": download everything stored about the user, or delete the account (decision 011).
 * Both ask for the password again (decision 019).
 */
export function DataSection() {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Dine data
      </h2>
      <p className="mt-1 text-stone-700">
        Last ned alt vi har lagret om deg som en JSON-fil, eller slett kontoen din og dataene dine for godt.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <DownloadDataButton />
        <DeleteAccountButton />
      </div>
    </section>
  );
}

// Button's variants would fight over colours (classes are joined, not merged), so spell these out.
const destructiveBase =
  "inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors disabled:cursor-not-allowed";

interface PasswordDialogProps {
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  busyLabel: string;
  destructive?: boolean;
  /** Toast title when the request fails for another reason than the password. */
  failureTitle: string;
  /** Runs with the typed password; a wrong password is shown under the field. */
  onConfirm: (password: string) => Promise<void>;
}

/** A confirmation dialog that asks for the password before a sensitive action (also the Vipps section's). */
export function PasswordDialog({
  trigger,
  title,
  description,
  confirmLabel,
  busyLabel,
  destructive,
  failureTitle,
  onConfirm,
}: PasswordDialogProps) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const reset = () => {
    setPassword("");
    setError(undefined);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordConfirmationSchema.safeParse({ password });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await onConfirm(parsed.data.password);
    } catch (err) {
      setBusy(false);
      if (isApiError(err) && (err.fields?.password || err.code === "INVALID_CREDENTIALS" || err.code === "RATE_LIMITED")) {
        setError(err.fields?.password ?? err.message);
        return;
      }
      toastError(failureTitle, isApiError(err) ? err.message : "Noe gikk galt. Prøv igjen.", { error: err });
      return;
    }
    setBusy(false);
    setOpen(false);
    reset();
  };

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (busy) return;
        setOpen(next);
        if (!next) reset();
      }}
    >
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-5 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-stone-900">{title}</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-stone-700">{description}</div>
          </AlertDialog.Description>
          <form className="mt-4" noValidate onSubmit={(event) => void submit(event)}>
            <TextField
              label="Passord"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              error={error}
              disabled={busy}
            />
            <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button type="button" variant="secondary" disabled={busy}>
                  Avbryt
                </Button>
              </AlertDialog.Cancel>
              {/* Not AlertDialog.Action: that would close the dialog before the request has finished. */}
              {destructive ? (
                <button
                  type="submit"
                  className={cn(destructiveBase, "min-h-11 bg-red-700 px-4 text-base text-white hover:bg-red-800 disabled:bg-stone-400")}
                  disabled={busy}
                >
                  {busy ? busyLabel : confirmLabel}
                </button>
              ) : (
                <Button type="submit" disabled={busy}>
                  {busy ? busyLabel : confirmLabel}
                </Button>
              )}
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}

function DownloadDataButton() {
  return (
    <PasswordDialog
      trigger={
        <Button variant="secondary" size="sm">
          <Download aria-hidden="true" className="size-4" />
          Last ned mine data
        </Button>
      }
      title="Last ned dataene dine"
      description={<p>Skriv inn passordet ditt, så laster vi ned alt vi har lagret om deg som en JSON-fil.</p>}
      confirmLabel="Last ned"
      busyLabel="Laster ned..."
      failureTitle="Kunne ikke laste ned dataene"
      onConfirm={downloadMyData}
    />
  );
}

function DeleteAccountButton() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  const confirm = async (password: string) => {
    await deleteAccount(password);
    leaveSignedOut(navigate, queryClient, "/", pathname);
    toastSuccess("Kontoen er slettet", "Kontoen din og dataene dine er fjernet fra Lekebytte.");
  };

  return (
    <PasswordDialog
      trigger={
        <button
          type="button"
          className={cn(destructiveBase, "min-h-9 border border-red-300 bg-white px-3 text-sm text-red-700 hover:bg-red-50")}
        >
          <Trash2 aria-hidden="true" className="size-4" />
          Slett konto
        </button>
      }
      title="Slette kontoen din?"
      description={
        <>
          <p>
            Profilen, annonsene, favorittene og bildene dine slettes, og du blir logget ut på alle enheter. Meldinger og bytter du har hatt
            med andre, vises videre for dem, med avsender «Anonym».
          </p>
          <p className="font-semibold text-stone-900">Dette kan ikke angres. Skriv inn passordet ditt for å bekrefte.</p>
        </>
      }
      confirmLabel="Slett konto for godt"
      busyLabel="Sletter konto..."
      destructive
      failureTitle="Kunne ikke slette kontoen"
      onConfirm={confirm}
    />
  );
}
