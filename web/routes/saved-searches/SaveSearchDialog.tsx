import * as Dialog from "@radix-ui/react-dialog";
import { useQueryClient } from "@tanstack/react-query";
import { X } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { Link } from "../../components/Link";
import { DEFAULT_SAVED_SEARCH_ALERT, SAVED_SEARCH_NAME_MAX_LENGTH, type SavedSearchAlert } from "../../../domain/saved-searches";
import { savedSearchCreateSchema } from "../../../domain/schemas/saved-search";
import { isApiError } from "../../api/client";
import { SignInForm } from "../../components/SignInForm";
import { Button } from "../../components/ui/Button";
import { TextField } from "../../components/ui/TextField";
import { toastSuccess } from "../../lib/toast";
import { useSession } from "../../lib/useSession";
import { serializeFilters, type SearchFilters } from "../search/searchFilters";
import { AlertChoice } from "./AlertChoice";
import { createSavedSearch, refreshSavedSearches } from "../../api/saved-searches";
import { summaryParts, suggestedName } from "./savedSearchSummary";

export interface SaveSearchDialogProps {
  filters: SearchFilters;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes when the dialog closes (the "Lagre søk" button). */
  returnFocusTo: () => HTMLElement | null;
}

/** "Lagre søk": a name and when to alert; a visitor signs in here first and keeps the search. */
export function SaveSearchDialog({ filters, open, onOpenChange, returnFocusTo }: SaveSearchDialogProps) {
  const session = useSession();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            returnFocusTo()?.focus();
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl focus:outline-none sm:p-6"
        >
          <div className="flex items-start justify-between gap-3">
            <Dialog.Title className="text-xl font-bold text-stone-900">Lagre søk</Dialog.Title>
            <Dialog.Close
              className="-mt-2 -mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-full text-stone-800 hover:bg-stone-100"
              aria-label="Lukk"
            >
              <X aria-hidden="true" className="size-6" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="mt-1 text-sm break-words text-stone-700">{summaryParts(filters).join(" · ")}</Dialog.Description>
          {session.status === "signed-in" ? (
            <SaveForm filters={filters} onSaved={() => onOpenChange(false)} />
          ) : session.status === "signed-out" ? (
            <div className="mt-4">
              <p className="text-stone-800">Logg inn for å lagre søket og få beskjed når det kommer nye annonser.</p>
              <div className="mt-4">
                <SignInForm />
              </div>
              <p className="mt-4 text-sm text-stone-700">
                Ny hos Lekebytte?{" "}
                <Link to="/auth" className="font-semibold text-brand-800 underline underline-offset-2">
                  Opprett en konto
                </Link>
              </p>
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function SaveForm({ filters, onSaved }: { filters: SearchFilters; onSaved: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(() => suggestedName(filters));
  const [alert, setAlert] = useState<SavedSearchAlert>(DEFAULT_SAVED_SEARCH_ALERT);
  const [nameError, setNameError] = useState<string>();
  const [formError, setFormError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const errorId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFormError(undefined);
    const parsed = savedSearchCreateSchema.safeParse({ name, query: serializeFilters(filters), alert });
    if (!parsed.success) {
      setNameError(parsed.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    setSaving(true);
    try {
      await createSavedSearch(parsed.data);
      await refreshSavedSearches(queryClient);
      toastSuccess("Søket er lagret", "Du finner det under «Lagrede søk» i kontomenyen.");
      onSaved();
    } catch (error) {
      const message = isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.";
      if (isApiError(error) && error.fields?.name) setNameError(error.fields.name);
      else setFormError(message);
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-describedby={formError ? errorId : undefined} className="mt-4 space-y-5">
      <TextField
        label="Navn på søket"
        value={name}
        maxLength={SAVED_SEARCH_NAME_MAX_LENGTH + 10}
        onChange={(e) => setName(e.target.value)}
        error={nameError}
        autoComplete="off"
      />
      <AlertChoice value={alert} onChange={setAlert} />
      {formError ? (
        <p id={errorId} role="alert" className="rounded-xl bg-red-50 p-3 text-sm font-medium text-red-800">
          {formError}
        </p>
      ) : null}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Dialog.Close asChild>
          <Button variant="secondary">Avbryt</Button>
        </Dialog.Close>
        <Button type="submit" disabled={saving}>
          {saving ? "Lagrer..." : "Lagre søk"}
        </Button>
      </div>
    </form>
  );
}
