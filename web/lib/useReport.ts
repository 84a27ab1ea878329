import { useState } from "react";
import { useNavigate } from "react-router-dom";
import type { ReportTarget } from "../components/ReportDialog";
import { toastError } from "./toast";
import { useSession } from "./useSession";

/**
 * Opens the report dialog for a target; a visitor is told to sign in and sent to /auth instead
 * (reports need an account: issue 13).
 */
export function useReport() {
  const session = useSession();
  const navigate = useNavigate();
  const [target, setTarget] = useState<ReportTarget | null>(null);
  const open = (next: ReportTarget) => {
    if (session.status !== "signed-in") {
      toastError("Logg inn påkrevd", "Du må være innlogget for å rapportere", { id: "login-required" });
      navigate("/auth");
      return;
    }
    setTarget(next);
  };
  return { target, open, close: () => setTarget(null) };
}
