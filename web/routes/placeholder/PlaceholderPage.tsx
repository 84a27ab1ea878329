import { Construction } from "lucide-react";
import { Link } from "react-router-dom";
import { buttonClasses } from "../../components/ui/Button";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

/** Stands in for a page that is not built yet: its title and a clear note, never a blank screen. */
export function PlaceholderPage({ title }: { title: string }) {
  useDocumentTitle(title);

  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      <div aria-hidden="true" className="mb-4 flex size-16 items-center justify-center rounded-full bg-accent-100 text-accent-900">
        <Construction className="size-8" />
      </div>
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      <p className="mt-3 text-stone-700">Denne siden er under arbeid. Kom gjerne tilbake snart!</p>
      <Link to="/" className={buttonClasses("secondary", "md", "mt-6")}>
        Gå til forsiden
      </Link>
    </section>
  );
}
