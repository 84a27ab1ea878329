import { TextField } from "./ui/TextField";

/**
 * The new password typed twice ("Lag nytt passord" and "Endre passord"), by the sign-up rule;
 * read by name (`password`, `password_confirm`) from the form's data.
 */
export function NewPasswordFields({ errors }: { errors: Partial<Record<"password" | "password_confirm", string>> }) {
  return (
    <>
      <TextField
        label="Nytt passord"
        type="password"
        name="password"
        autoComplete="new-password"
        placeholder="Minimum 6 tegn"
        error={errors.password}
      />
      <TextField
        label="Gjenta nytt passord"
        type="password"
        name="password_confirm"
        autoComplete="new-password"
        error={errors.password_confirm}
      />
    </>
  );
}
