import { LogOut } from "lucide-react";
import { useState } from "react";
import { Button } from "../../components/ui/Button";
import { useDocumentTitle } from "../../lib/useDocumentTitle";
import { useSignOut } from "../../lib/useSignOut";
import { DataSection } from "./DataSection";
import { EmailSection } from "./EmailSection";
import { PasswordSection } from "./PasswordSection";
import { SessionsSection } from "./SessionsSection";
import { ModerationNotices } from "./ModerationNotices";
import { OwnListingsSection } from "./OwnListingsSection";
import { PaymentsSection } from "./PaymentsSection";
import { ProfileInfoCard } from "./ProfileInfoCard";
import { PurchasesAndSalesSection } from "./PurchasesAndSalesSection";

/** /profile and /min-profil: "Min profil" (docs/product.md "Profile"). Login required by the router. */
export function ProfilePage() {
  useDocumentTitle("Min profil");
  const signOut = useSignOut();
  const [signingOut, setSigningOut] = useState(false);

  const handleSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } finally {
      setSigningOut(false);
    }
  };

  return (
    <div className="mx-auto max-w-3xl space-y-5 px-4 py-6 sm:py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl">Min profil</h1>
        <Button variant="secondary" size="sm" onClick={() => void handleSignOut()} disabled={signingOut}>
          <LogOut aria-hidden="true" className="size-4" />
          Logg ut
        </Button>
      </div>
      <ModerationNotices />
      <ProfileInfoCard />
      <PaymentsSection />
      <PurchasesAndSalesSection />
      <OwnListingsSection />
      <EmailSection />
      <PasswordSection />
      <SessionsSection />
      <DataSection />
    </div>
  );
}
