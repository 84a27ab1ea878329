import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { Download, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { cn } from "../../lib/cn";
import { toastError, toastSuccess } from "../../lib/toast";
import { leaveSignedOut } from "../../lib/useSignOut";
import { deleteAccount, downloadMyData } from "./profileApi";

/** "Dine data": download everything stored about the user, or delete the account (decision 011). */
export function DataSection() {
  const headingId = useId();
  const [downloading, setDownloading] = useState(false);

  const download = async () => {
    setDownloading(true);
    try {
      await downloadMyData();
    } catch (error) {
      toastError("Kunne ikke laste ned dataene", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Dine data
      </h2>
      <p className="mt-1 text-stone-700">
        Last ned alt vi har lagret om deg som en JSON-fil, eller slett kontoen din og dataene dine for godt.
      </p>
      <div className="mt-4 flex flex-wrap gap-2">
        <Button variant="secondary" size="sm" onClick={() => void download()} disabled={downloading}>
          <Download aria-hidden="true" className="size-4" />
          {downloading ? "Laster ned..." : "Last ned mine data"}
        </Button>
        <DeleteAccountButton />
      </div>
    </section>
  );
}

// Button's variants would fight over colours (classes are joined, not merged), so spell these out.
const destructiveBase =
  "inline-flex items-center justify-center gap-2 rounded-xl font-semibold transition-colors disabled:cursor-not-allowed";

function DeleteAccountButton() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const confirm = async () => {
    setDeleting(true);
    try {
      await deleteAccount();
    } catch (error) {
      setDeleting(false);
      toastError("Kunne ikke slette kontoen", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.");
      return;
    }
    leaveSignedOut(navigate, queryClient, "/", pathname);
    toastSuccess("Kontoen er slettet", "Kontoen din og dataene dine er fjernet fra Lekebytte.");
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !deleting && setOpen(next)}>
      <AlertDialog.Trigger asChild>
        <button type="button" className={cn(destructiveBase, "min-h-9 border border-red-300 bg-white px-3 text-sm text-red-700 hover:bg-red-50")}>
          <Trash2 aria-hidden="true" className="size-4" />
          Slett konto
        </button>
      </AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-stone-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-5 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-stone-900">Slette kontoen din?</AlertDialog.Title>
          <AlertDialog.Description asChild>
            <div className="mt-2 space-y-2 text-stone-700">
              <p>
                Profilen, annonsene, favorittene og bildene dine slettes, og du blir logget ut på alle enheter. Meldinger og bytter
                du har hatt med andre, vises videre for dem, med avsender «Anonym».
              </p>
              <p className="font-semibold text-stone-900">Dette kan ikke angres.</p>
            </div>
          </AlertDialog.Description>
          <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={deleting}>
                Avbryt
              </Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the request has finished. */}
            <button
              type="button"
              className={cn(destructiveBase, "min-h-11 bg-red-700 px-4 text-base text-white hover:bg-red-800 disabled:bg-stone-400")}
              disabled={deleting}
              onClick={() => void confirm()}
            >
              {deleting ? "Sletter konto..." : "Slett konto for godt"}
            </button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
