import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router-dom";
import { buttonClasses } from "../../components/ui/Button";

/** A sign-in that could not finish (the e-mail link's, Vipps'): what happened, and the way back to /auth. */
export function SignInFailed({ title, reason, children }: { title: string; reason: ReactNode; children?: ReactNode }) {
  return (
    <>
      <div aria-hidden="true" className="mb-4 flex size-16 items-center justify-center rounded-full bg-red-50 text-red-700">
        <CircleAlert className="size-8" />
      </div>
      <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
      <p role="alert" className="mt-3 font-medium break-words text-stone-900">
        {reason}
      </p>
      {children}
      <Link to="/auth" className={buttonClasses("primary", "md", "mt-6")}>
        Gå til innlogging
      </Link>
    </>
  );
}
