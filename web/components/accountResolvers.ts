// The sign-up form's schema as a form resolver: loaded when the "Registrer" tab opens or on its
// first submit (`lazyResolver`), so zod is not part of /auth's first load (decision 102). Sign-in
// is a plain form that loads the schema itself (decision 104).
import { zodResolver } from "@hookform/resolvers/zod";
import { signUpSchema } from "../../domain/schemas/account";

export const signUpResolver = zodResolver(signUpSchema);
