import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Bookmark, Pencil, Search, Trash2 } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Link } from "../../components/Link";
import {
  formatNewCount,
  SAVED_SEARCH_ALERT_LABELS,
  SAVED_SEARCH_ALERTS,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  type SavedSearchAlert,
} from "../../../domain/saved-searches";
import { savedSearchUpdateSchema } from "../../../domain/schemas/saved-search";
import { isApiError } from "../../api/client";
import { Button, buttonClasses } from "../../components/ui/Button";
import { Card } from "../../components/ui/Card";
import { Spinner } from "../../components/ui/Spinner";
import { TextField } from "../../components/ui/TextField";
import { toastError, toastSuccess } from "../../lib/toast";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { DeleteSavedSearchDialog } from "./DeleteSavedSearchDialog";
import {
  deleteSavedSearch,
  markSavedSearchSeen,
  refreshSavedSearches,
  savedSearchesQuery,
  updateSavedSearch,
  type SavedSearch,
} from "../../api/saved-searches";
import { savedSearchSummary } from "./savedSearchSummary";
import { ErrorCode } from "../../components/ErrorCode";

/** /lagrede-sok: the signed-in user's saved searches with new matches (login required by the router). */
export function SavedSearchesPage() {
  useDocumentTitle("Lagrede søk");
  const { data, isPending, error, refetch, isRefetching } = useQuery(savedSearchesQuery());
  const [deleting, setDeleting] = useState<SavedSearch | null>(null);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (search: SavedSearch) => deleteSavedSearch(search.id),
    onSuccess: (_data, search) => toastSuccess("Søket er slettet", `«${search.name}» og varslene for det er borte.`),
    onError: (e) => toastError("Kunne ikke slette søket", e.message, { error: e }),
    onSettled: () => refreshSavedSearches(queryClient),
  });

  return (
    <div className="mx-auto max-w-3xl px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Lagrede søk</h1>
      <p className="mt-2 text-stone-700">
        Få beskjed når noen legger ut en leke som passer. Nye treff siden sist du så på søket vises her.
      </p>
      {isPending ? (
        <Spinner label="Laster lagrede søk..." className="py-12" />
      ) : error ? (
        <div className="mt-6 space-y-3">
          <p className="text-stone-700">Kunne ikke hente lagrede søk. {error.message}</p>
          <ErrorCode error={error} />
          <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isRefetching}>
            Prøv igjen
          </Button>
        </div>
      ) : data.length === 0 ? (
        <div className="mt-6 flex flex-col items-center rounded-2xl border border-dashed border-stone-300 bg-white p-8 text-center">
          <Bookmark aria-hidden="true" className="size-8 text-stone-500" />
          <p className="mt-3 font-semibold text-stone-900">Du har ingen lagrede søk ennå.</p>
          <p className="mt-1 text-stone-700">Søk etter noe du ønsker deg, og trykk «Lagre søk» for å få beskjed når det dukker opp.</p>
          <Link to="/search" className={buttonClasses("secondary", "sm", "mt-4")}>
            Gå til søk
          </Link>
        </div>
      ) : (
        <ul className="mt-5 space-y-3">
          {data.map((search) => (
            <li key={search.id}>
              <SavedSearchCard search={search} onDelete={() => setDeleting(search)} />
            </li>
          ))}
        </ul>
      )}
      <DeleteSavedSearchDialog
        name={deleting?.name ?? null}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting);
          setDeleting(null);
        }}
      />
    </div>
  );
}

function SavedSearchCard({ search, onDelete }: { search: SavedSearch; onDelete: () => void }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const headingId = `saved-search-${search.id}`;
  const alertId = `saved-search-alert-${search.id}`;
  const summary = savedSearchSummary(search.query);
  const update = useMutation({
    mutationFn: (change: { name?: string; alert?: SavedSearchAlert }) => updateSavedSearch(search.id, change),
    onSettled: () => refreshSavedSearches(queryClient),
  });
  const open = () => {
    // What is listed now is no longer new; the badge follows. Navigation does not wait for it.
    void markSavedSearchSeen(search.id)
      .then(() => refreshSavedSearches(queryClient))
      .catch(() => undefined);
  };
  const changeAlert = (alert: SavedSearchAlert) =>
    update.mutate(
      { alert },
      {
        onSuccess: () => toastSuccess("Varselet er endret", `«${search.name}»: ${SAVED_SEARCH_ALERT_LABELS[alert]}`),
        onError: (e) => toastError("Kunne ikke endre varselet", e.message, { error: e }),
      },
    );

  return (
    <Card className="p-4 sm:p-5">
      <article aria-labelledby={headingId}>
        <div className="flex items-start justify-between gap-3">
          <h2 id={headingId} className={renaming ? "sr-only" : "min-w-0 text-lg font-bold break-words text-stone-900"}>
            {search.name}
          </h2>
          {renaming ? (
            <RenameForm
              search={search}
              onDone={() => setRenaming(false)}
              save={(name) => update.mutateAsync({ name }).then(() => toastSuccess("Søket har fått nytt navn", name))}
            />
          ) : null}
          {search.new_count > 0 ? (
            <span className="shrink-0 rounded-full bg-red-700 px-2.5 py-0.5 text-sm font-bold text-white">
              {formatNewCount(search.new_count)} {search.new_count === 1 ? "ny" : "nye"}
            </span>
          ) : (
            <span className="shrink-0 pt-0.5 text-sm text-stone-600">Ingen nye</span>
          )}
        </div>
        {summary && summary !== search.name ? <p className="mt-1 text-sm break-words text-stone-700">{summary}</p> : null}

        <div className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor={alertId} className="text-sm font-medium text-stone-800">
            Varsel
          </label>
          <select
            id={alertId}
            value={search.alert}
            disabled={update.isPending}
            onChange={(e) => changeAlert(e.target.value as SavedSearchAlert)}
            className="min-h-11 rounded-xl border border-stone-500 bg-white px-3 text-base text-stone-900"
          >
            {SAVED_SEARCH_ALERTS.map((alert) => (
              <option key={alert} value={alert}>
                {SAVED_SEARCH_ALERT_LABELS[alert]}
              </option>
            ))}
          </select>
        </div>

        <div className="mt-4 flex flex-wrap gap-2">
          <Link
            to={`/search${search.query ? `?${search.query}` : ""}`}
            onClick={open}
            aria-label={`Vis treff for ${search.name}`}
            className={buttonClasses("primary", "md", "w-full sm:w-auto")}
          >
            <Search aria-hidden="true" className="size-5" />
            Vis treff
          </Link>
          <Button
            variant="secondary"
            className="flex-1 sm:flex-none"
            onClick={() => setRenaming(true)}
            disabled={renaming}
            aria-label={`Gi nytt navn til ${search.name}`}
          >
            <Pencil aria-hidden="true" className="size-4" />
            Gi nytt navn
          </Button>
          <Button variant="secondary" className="flex-1 sm:flex-none" onClick={onDelete} aria-label={`Slett ${search.name}`}>
            <Trash2 aria-hidden="true" className="size-4" />
            Slett
          </Button>
        </div>
      </article>
    </Card>
  );
}

function RenameForm({ search, save, onDone }: { search: SavedSearch; save: (name: string) => Promise<unknown>; onDone: () => void }) {
  const [name, setName] = useState(search.name);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = savedSearchUpdateSchema.safeParse({ name });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      return;
    }
    setSaving(true);
    try {
      await save(parsed.data.name!);
      onDone();
    } catch (e) {
      setError(isApiError(e) ? e.message : "Noe gikk galt. Prøv igjen.");
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="min-w-0 flex-1 space-y-2">
      <TextField
        label="Nytt navn"
        value={name}
        maxLength={SAVED_SEARCH_NAME_MAX_LENGTH + 10}
        onChange={(e) => setName(e.target.value)}
        error={error}
        autoFocus
        autoComplete="off"
      />
      <div className="flex gap-2">
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? "Lagrer..." : "Lagre"}
        </Button>
        <Button variant="secondary" size="sm" onClick={onDone}>
          Avbryt
        </Button>
      </div>
    </form>
  );
}
