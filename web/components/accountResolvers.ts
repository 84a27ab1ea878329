// The sign-in and sign-up forms' schemas as form resolvers: loaded on their first submit
// (`lazyResolver`), so zod is not part of /auth's first load (decision 102).
import { zodResolver } from "@hookform/resolvers/zod";
import { signInSchema, signUpSchema } from "../../domain/schemas/account";

export const signInResolver = zodResolver(signInSchema);
export const signUpResolver = zodResolver(signUpSchema);
