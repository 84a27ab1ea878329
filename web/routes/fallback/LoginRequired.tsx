import { Lock } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "../../components/Link";
import { buttonClasses } from "../../components/ui/Button";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { FallbackScreen } from "./FallbackScreen";

export interface LoginRequiredProps {
  /** Replaces the default "Logg inn" button, e.g. with an inline sign-in form. */
  children?: ReactNode;
}

export function LoginRequired({ children }: LoginRequiredProps) {
  useDocumentTitle("Du må logge inn");
  return (
    <FallbackScreen
      icon={<Lock className="size-8" />}
      title="Du må logge inn"
      text="For å se denne siden må du være logget inn. Logg inn eller opprett en ny konto for å fortsette."
    >
      {children ?? (
        <Link to="/auth" className={buttonClasses()}>
          Logg inn
        </Link>
      )}
    </FallbackScreen>
  );
}
