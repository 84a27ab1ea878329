import { useQuery } from "@tanstack/react-query";
import { Mail, MapPin, Phone } from "lucide-react";
import type { ReactNode } from "react";
import { configQuery } from "../../api/shell";
import { cn } from "../../lib/cn";
import { useDocumentTitle } from "../../lib/useDocumentTitle";

export interface StaticPageProps {
  title: string;
  /** The lead paragraph under the title. */
  lead: ReactNode;
  children: ReactNode;
  className?: string;
}

/** The frame of the static pages: one readable column, an h1 and a lead; sections use h2/h3. */
export function StaticPage({ title, lead, children, className }: StaticPageProps) {
  useDocumentTitle(title);
  return (
    <article className={cn("mx-auto max-w-3xl px-4 py-8 sm:py-12", className)}>
      <h1 className="text-3xl font-extrabold tracking-tight text-stone-900 sm:text-4xl">{title}</h1>
      <div className="mt-3 text-lg text-stone-700">{lead}</div>
      {children}
    </article>
  );
}

/** Text styles for long-form content (no typography plugin: a few descendant rules). */
export const proseClasses = cn(
  "text-base leading-relaxed text-stone-800",
  "[&_h2]:mt-10 [&_h2]:scroll-mt-6 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-stone-900",
  "[&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-bold [&_h3]:text-stone-900",
  "[&_p]:mt-3 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-3 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6",
  "[&_a]:font-medium [&_a]:text-brand-800 [&_a]:underline [&_a]:underline-offset-2 [&_a:hover]:text-brand-900",
  "[&_strong]:font-semibold [&_strong]:text-stone-900",
);

export function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn(proseClasses, className)}>{children}</div>;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, "")}`;
}

/** E-mail, phone and address from /api/config (nothing while it loads). */
export function ContactDetails({ className }: { className?: string }) {
  const { data: config } = useQuery(configQuery());
  if (!config) return null;
  return (
    <address className={cn("space-y-3 not-italic", className)}>
      <p className="flex items-center gap-3">
        <Mail aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
        <span>
          <span className="sr-only">E-post: </span>
          <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a>
        </span>
      </p>
      <p className="flex items-center gap-3">
        <Phone aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
        <span>
          <span className="sr-only">Telefon: </span>
          <a href={telHref(config.contactPhone)}>{config.contactPhone}</a>
        </span>
      </p>
      <p className="flex items-center gap-3">
        <MapPin aria-hidden="true" className="size-5 shrink-0 text-brand-700" />
        <span>
          <span className="sr-only">Adresse: </span>
          {config.contactAddress}
        </span>
      </p>
    </address>
  );
}
