import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { formatDate } from "../../../domain/format";
import { POSTAL_CODE_MAX_LENGTH, STREET_ADDRESS_MAX_LENGTH } from "../../../domain/limits";
import { profileUpdateSchema } from "../../../domain/schemas/account";
import { isApiError } from "../../api/client";
import { Button } from "../../components/ui/Button";
import { Spinner } from "../../components/ui/Spinner";
import { TextField } from "../../components/ui/TextField";
import { toastError, toastSuccess } from "../../lib/toast";
import { applyProfile, profileQuery, updateProfile, type Profile } from "../../api/account";

type ProfileFormInput = z.input<typeof profileUpdateSchema>;
type ProfileFormValues = z.output<typeof profileUpdateSchema>;

function formValues(profile: Profile): { display_name: string; postal_code: string; street_address: string } {
  return { display_name: profile.display_name ?? "", postal_code: profile.postal_code ?? "", street_address: profile.street_address ?? "" };
}

/** The street address's hint: why a marketplace asks for it (only the owner ever sees it). */
export const STREET_ADDRESS_HINT = "Brukes som avsenderadresse når du sender en pakke.";

/** Profile info (e-mail, name, postal code, street address, member since) with Rediger / Lagre / Avbryt. */
export function ProfileInfoCard() {
  const headingId = useId();
  const { data: profile, isPending, error, refetch, isRefetching } = useQuery(profileQuery());

  useEffect(() => {
    if (error) toastError("Kunne ikke hente profil", isApiError(error) ? error.message : undefined, { id: "profile-load", error });
  }, [error]);

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
      <h2 id={headingId} className="text-lg font-bold text-stone-900">
        Profilinformasjon
      </h2>
      {isPending ? (
        <Spinner label="Laster profil..." className="py-6" />
      ) : error || !profile ? (
        <div className="mt-3 space-y-3">
          <p className="text-stone-700">Kunne ikke hente profil. Sjekk nettforbindelsen og prøv igjen.</p>
          <Button variant="secondary" size="sm" onClick={() => void refetch()} disabled={isRefetching}>
            Prøv igjen
          </Button>
        </div>
      ) : (
        <ProfileDetails profile={profile} />
      )}
    </section>
  );
}

function ProfileDetails({ profile }: { profile: Profile }) {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<ProfileFormInput, unknown, ProfileFormValues>({
    resolver: zodResolver(profileUpdateSchema),
    defaultValues: formValues(profile),
  });

  useEffect(() => {
    if (editing) setFocus("display_name");
  }, [editing, setFocus]);

  const startEditing = () => {
    reset(formValues(profile));
    setEditing(true);
  };

  // Avbryt: back to the saved values, nothing sent.
  const cancel = () => {
    reset(formValues(profile));
    setEditing(false);
  };

  const save = async (values: ProfileFormValues) => {
    try {
      const saved = await updateProfile(values);
      applyProfile(queryClient, saved);
      reset(formValues(saved));
      setEditing(false);
      toastSuccess("Profil oppdatert");
    } catch (error) {
      const fields = isApiError(error) ? error.fields : undefined;
      if (fields?.display_name) setError("display_name", { type: "server", message: fields.display_name });
      if (fields?.postal_code) setError("postal_code", { type: "server", message: fields.postal_code });
      if (fields?.street_address) setError("street_address", { type: "server", message: fields.street_address });
      toastError("Kunne ikke oppdatere profil", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
    }
  };

  if (!editing) {
    return (
      <>
        <dl className="mt-4 grid gap-x-6 gap-y-3 sm:grid-cols-[max-content_1fr]">
          <ProfileRow label="E-post" value={profile.email} />
          <ProfileRow label="Navn" value={profile.display_name} />
          <ProfileRow label="Postnummer" value={profile.postal_code} />
          <ProfileRow label="Gateadresse" value={profile.street_address} />
          <ProfileRow label="Medlem siden" value={formatDate(profile.created_at)} />
        </dl>
        <Button variant="secondary" size="sm" className="mt-5" onClick={startEditing}>
          <Pencil aria-hidden="true" className="size-4" />
          Rediger
        </Button>
      </>
    );
  }

  return (
    <form onSubmit={handleSubmit(save)} noValidate aria-label="Rediger profil" className="mt-4">
      <fieldset disabled={isSubmitting} aria-busy={isSubmitting} className="m-0 min-w-0 space-y-4 border-0 p-0">
        <div>
          <p className="mb-1 text-sm font-medium text-stone-800">E-post</p>
          <p className="break-all text-stone-900">{profile.email}</p>
        </div>
        <TextField label="Navn" autoComplete="name" error={errors.display_name?.message} {...register("display_name")} />
        <TextField
          label="Postnummer"
          inputMode="numeric"
          autoComplete="postal-code"
          maxLength={POSTAL_CODE_MAX_LENGTH}
          className="max-w-40"
          error={errors.postal_code?.message}
          {...register("postal_code")}
        />
        <TextField
          label="Gateadresse"
          autoComplete="address-line1"
          maxLength={STREET_ADDRESS_MAX_LENGTH}
          hint={STREET_ADDRESS_HINT}
          error={errors.street_address?.message}
          {...register("street_address")}
        />
        <div className="flex flex-wrap gap-2 pt-1">
          <Button type="submit" size="sm">
            {isSubmitting ? "Lagrer..." : "Lagre"}
          </Button>
          <Button type="button" variant="secondary" size="sm" onClick={cancel}>
            Avbryt
          </Button>
        </div>
      </fieldset>
    </form>
  );
}

function ProfileRow({ label, value }: { label: string; value: string | null }) {
  return (
    <div className="sm:contents">
      <dt className="text-sm font-medium text-stone-600">{label}</dt>
      <dd className="break-words text-stone-900">{value || <span className="text-stone-600">Ikke oppgitt</span>}</dd>
    </div>
  );
}
