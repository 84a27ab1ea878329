import { useQuery } from "@tanstack/react-query";
import { Mail, MapPin, Phone } from "lucide-react";
import { memo } from "react";
import { Link } from "../Link";
import { currentYear } from "../../../domain/format";
import { configQuery } from "../../api/shell";
import { APP_NAME } from "../../lib/useDocumentTitle";
import { LogoMark } from "./Logo";

const linkClasses = "rounded text-stone-800 underline-offset-2 hover:text-brand-800 hover:underline";

const marketplaceLinks = [
  { to: "/search", label: "Søk etter leker" },
  { to: "/create-listing", label: "Legg ut en leke" },
  { to: "/auth", label: "Logg inn / Registrer" },
  { to: "/profile", label: "Min profil" },
];

const aboutLinks = [
  { to: "/om-oss", label: "Om oss" },
  { to: "/kontakt", label: "Kontakt" },
  { to: "/personvern", label: "Personvern" },
  { to: "/personvern#vilkar", label: "Vilkår" },
  { to: "/personvern#informasjonskapsler", label: "Informasjonskapsler" },
];

function FooterNav({ id, title, links }: { id: string; title: string; links: readonly { to: string; label: string }[] }) {
  return (
    <nav aria-labelledby={id}>
      <h2 id={id} className="text-sm font-bold tracking-wide text-stone-900 uppercase">
        {title}
      </h2>
      <ul className="mt-3 space-y-2 text-sm">
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className={linkClasses}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/**
 * The same on every page: memoised, so the root layout rendering again (the session's answer, a
 * navigation) does not render it again.
 */
export const Footer = memo(function Footer() {
  const { data: config } = useQuery(configQuery());
  const appName = config?.appName ?? APP_NAME;

  return (
    <footer className="mt-16 border-t border-stone-200 bg-stone-100">
      <div className="mx-auto grid max-w-6xl grid-cols-2 gap-8 px-4 py-10 lg:grid-cols-4">
        <div className="col-span-2 lg:col-span-1">
          <p className="flex items-center gap-2 text-lg font-extrabold text-brand-800">
            <LogoMark className="size-8" />
            {appName}
          </p>
          <p className="mt-3 text-sm text-stone-700">Kjøp, selg, gi bort og bytt brukte leker og barneutstyr.</p>
        </div>

        <FooterNav id="footer-marketplace" title="Markedsplassen" links={marketplaceLinks} />
        <FooterNav id="footer-about" title={`Om ${appName}`} links={aboutLinks} />

        <div className="col-span-2 lg:col-span-1">
          <h2 className="text-sm font-bold tracking-wide text-stone-900 uppercase">Kontakt oss</h2>
          {config ? (
            <address className="mt-3 space-y-2 text-sm not-italic">
              <p className="flex items-center gap-2">
                <Mail aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
                <a href={`mailto:${config.contactEmail}`} className={linkClasses}>
                  {config.contactEmail}
                </a>
              </p>
              <p className="flex items-center gap-2">
                <Phone aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
                <a href={telHref(config.contactPhone)} className={linkClasses}>
                  {config.contactPhone}
                </a>
              </p>
              <p className="flex items-center gap-2 text-stone-800">
                <MapPin aria-hidden="true" className="size-4 shrink-0 text-brand-700" />
                {config.contactAddress}
              </p>
            </address>
          ) : null}
        </div>
      </div>
      <div className="border-t border-stone-200">
        <p className="mx-auto max-w-6xl px-4 py-4 text-sm text-stone-700">
          © {currentYear()} {appName}
        </p>
      </div>
    </footer>
  );
});
