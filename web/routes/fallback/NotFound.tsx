import { SearchX } from "lucide-react";
import { useEffect } from "react";
import { useLocation } from "react-router-dom";
import { Link } from "../../components/Link";
import { buttonClasses } from "../../components/ui/Button";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { FallbackScreen } from "./FallbackScreen";

export function NotFound() {
  const { pathname } = useLocation();
  useDocumentTitle("Siden finnes ikke");
  useEffect(() => {
    console.warn("404: no route for", pathname);
  }, [pathname]);

  return (
    <FallbackScreen
      icon={<SearchX className="size-8" />}
      title="404 - Siden finnes ikke"
      text="Beklager, vi fant ikke siden du leter etter. Den kan ha blitt flyttet eller slettet."
    >
      <Link to="/" className={buttonClasses()}>
        Gå til forsiden
      </Link>
    </FallbackScreen>
  );
}
