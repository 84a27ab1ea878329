import { useState, type ReactNode } from "react";
import { useQuery } from "@tanstack/react-query";
import { VIPPS_LOGIN_BUTTON } from "../../../domain/vipps-login";
import { isApiError } from "../../api/client";
import { configQuery } from "../../api/shell";
import { startVippsLogin } from "../../api/vipps-login";
import { toastError } from "../../lib/toast";

/**
 * Vipps' orange with white text: the text is 20 px bold, "large text" for WCAG, whose 3:1 this pair
 * (3.1:1) meets; smaller text would not. No logo: only Vipps' own words for the button.
 */
const VIPPS_BUTTON =
  "inline-flex min-h-12 w-full items-center justify-center rounded-xl bg-[#ff5b24] px-4 text-xl font-bold text-white transition-colors hover:bg-[#e24a14] focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-stone-900 disabled:cursor-wait";

/** "Logg inn med Vipps" on /auth: starts the login and sends the browser to Vipps; `next` is where it comes back to. */
export function VippsButton({ next }: { next: string | null }) {
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const { url } = await startVippsLogin(next);
      window.location.assign(url);
    } catch (error) {
      setBusy(false);
      toastError("Kunne ikke logge inn med Vipps", isApiError(error) ? error.message : "Noe gikk galt. Prøv igjen.", { error });
    }
  };
  return (
    <button type="button" className={VIPPS_BUTTON} onClick={() => void start()} disabled={busy} aria-busy={busy}>
      {VIPPS_LOGIN_BUTTON}
    </button>
  );
}

/** The button and an "eller" rule under it, only where the Worker offers Vipps Login. */
export function VippsSignIn({ next, children }: { next: string | null; children?: ReactNode }) {
  const { data: config } = useQuery(configQuery());
  if (!config?.vippsLogin) return null;
  return (
    <div className="mt-6">
      <VippsButton next={next} />
      <p className="mt-4 flex items-center gap-3 text-sm text-stone-700 before:h-px before:flex-1 before:bg-stone-300 after:h-px after:flex-1 after:bg-stone-300">
        {children ?? "eller med e-post"}
      </p>
    </div>
  );
}
