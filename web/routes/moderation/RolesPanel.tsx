import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ROLES, type Role } from "../../../domain/roles";
import { isApiError } from "../../api/client";
import { changeRole, moderationKeys, staffQuery } from "../../api/moderation";
import { fieldClasses } from "../../components/Modal";
import { Button } from "../../components/ui/Button";
import { Label } from "../../components/ui/Label";
import { TextField } from "../../components/ui/TextField";
import { toastError, toastSuccess } from "../../lib/toast";

const ROLE_LABELS: Record<Role, string> = { user: "Bruker", moderator: "Moderator", admin: "Administrator" };

/** Admins change roles here as well as with `npm run user:role` (it takes effect on the user's next request). */
export function RolesPanel() {
  const queryClient = useQueryClient();
  const staff = useQuery(staffQuery());
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("moderator");
  const [busy, setBusy] = useState(false);
  const roleId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    try {
      const changed = await changeRole(email, role);
      toastSuccess("Rolle endret", `${changed.email}: ${ROLE_LABELS[changed.role]}`);
      setEmail("");
      void queryClient.invalidateQueries({ queryKey: moderationKeys.staff });
    } catch (err) {
      toastError("Feil", isApiError(err) ? err.message : "Kunne ikke endre rollen", { error: err });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="roles-heading" className="mt-10 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm">
      <h2 id="roles-heading" className="text-lg font-bold text-stone-900">
        Roller
      </h2>
      {staff.data ? (
        <ul className="mt-2 divide-y divide-stone-100 text-sm">
          {staff.data.map((m) => (
            <li key={m.id} className="flex justify-between gap-2 py-1.5">
              <span className="truncate text-stone-900">{m.display_name || m.email}</span>
              <span className="shrink-0 text-stone-700">{ROLE_LABELS[m.role]}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <form onSubmit={(e) => void submit(e)} className="mt-4 space-y-3">
        <TextField
          label="E-postadresse"
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <div>
          <Label htmlFor={roleId}>Rolle</Label>
          <select id={roleId} value={role} onChange={(e) => setRole(e.target.value as Role)} className={fieldClasses}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" disabled={busy || !email.trim()}>
          Endre rolle
        </Button>
      </form>
    </section>
  );
}
