import { Link } from "./Link";
import { LoginRequired } from "../routes/fallback/LoginRequired";
import { SignInForm } from "./SignInForm";

/** What a protected page shows a visitor: "Du må logge inn" with the sign-in form (loaded on demand). */
export default function SignInGate() {
  return (
    <LoginRequired>
      <div className="w-full rounded-2xl border border-stone-200 bg-white p-5 shadow-sm">
        <SignInForm />
      </div>
      <p className="text-sm text-stone-700">
        Har du ikke konto?{" "}
        <Link to="/auth" className="font-semibold text-brand-800 underline underline-offset-2">
          Opprett en ny konto
        </Link>
      </p>
    </LoginRequired>
  );
}
