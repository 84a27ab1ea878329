import type { ReactNode } from "react";

export interface FallbackScreenProps {
  icon?: ReactNode;
  title: string;
  text: string;
  children?: ReactNode;
}

/** Centred title, text and actions shared by the 404, login-required and error screens. */
export function FallbackScreen({ icon, title, text, children }: FallbackScreenProps) {
  return (
    <section className="mx-auto flex max-w-md flex-col items-center px-4 py-16 text-center">
      {icon ? (
        <div aria-hidden="true" className="mb-4 flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          {icon}
        </div>
      ) : null}
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      <p className="mt-3 text-stone-700">{text}</p>
      {children ? <div className="mt-6 flex w-full flex-col items-center gap-3">{children}</div> : null}
    </section>
  );
}
