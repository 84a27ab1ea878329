import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { OwnListingsSection } from "./OwnListingsSection";

/** /my-listings: the profile's own-listings list on its own (header menu "Mine annonser"). */
export function MyListingsPage() {
  useDocumentTitle("Mine annonser");
  return (
    <div className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-8">
      <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Mine annonser</h1>
      <OwnListingsSection />
    </div>
  );
}
