import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { ReportTarget } from "../components/ReportDialog";
import { toastError } from "./toast";
import { useSessionWhenKnown } from "./useSession";

/**
 * Opens the report dialog for a target; a visitor is told to sign in and sent to /auth instead
 * (reports need an account). A press while the session is still being checked is carried
 * out once it is known.
 */
export function useReport() {
  const sessionWhenKnown = useSessionWhenKnown();
  const navigate = useNavigate();
  const [target, setTarget] = useState<ReportTarget | null>(null);
  const open = (next: ReportTarget) => {
    void sessionWhenKnown().then((session) => {
      if (!session) {
        toastError("Logg inn påkrevd", "Du må være innlogget for å rapportere", { id: "login-required" });
        navigate("/auth");
        return;
      }
      setTarget(next);
    });
  };
  return { target, open, close: () => setTarget(null) };
}
