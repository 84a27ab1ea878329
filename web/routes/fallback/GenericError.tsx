import { TriangleAlert } from "lucide-react";
import { Button, buttonClasses } from "../../components/ui/Button";
import { FallbackScreen } from "./FallbackScreen";

export interface GenericErrorProps {
  /** When given, "Prøv igjen" is offered; otherwise "Gå til forsiden". */
  onRetry?: () => void;
}

/**
 * "Noe gikk galt". It may render outside the router (top-level boundary), so the home link is a
 * plain anchor, which also gives a fresh start.
 */
export function GenericError({ onRetry }: GenericErrorProps) {
  return (
    <FallbackScreen
      icon={<TriangleAlert className="size-8" />}
      title="Noe gikk galt"
      text="Vi beklager, men noe gikk galt. Prøv å laste siden på nytt eller gå tilbake til forsiden."
    >
      {onRetry ? (
        <Button onClick={onRetry}>Prøv igjen</Button>
      ) : (
        <a href="/" className={buttonClasses("primary")}>
          Gå til forsiden
        </a>
      )}
    </FallbackScreen>
  );
}

/** Retrying means a fresh page: it also picks up new route chunks after a deploy. */
export function reloadPage(): void {
  window.location.reload();
}
