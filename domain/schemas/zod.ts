// Norwegian default messages for every zod schema (worker and web), so a rule without its own
// message never shows English to a user. zod's own Norwegian locale writes technical texts with
// English type names ("For lite(n): forventet number til å ha >=1", "Ugyldig input: forventet
// object, fikk string"); these say the same in plain Bokmål (docs/decisions/061).
import { z } from "zod";

const TYPES: Record<string, string> = {
  string: "tekst",
  number: "et tall",
  int: "et helt tall",
  bigint: "et helt tall",
  boolean: "ja eller nei",
  array: "en liste",
  object: "et objekt med felter",
  date: "en dato",
};

const FORMATS: Record<string, string> = {
  email: "Ugyldig e-postadresse",
  uuid: "Ugyldig ID",
  guid: "Ugyldig ID",
  url: "Ugyldig nettadresse",
  datetime: "Ugyldig tidspunkt",
  date: "Ugyldig dato",
  time: "Ugyldig klokkeslett",
};

type Issue = Parameters<z.core.$ZodErrorMap>[0];

export function norwegianMessage(issue: Issue): string {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "Feltet mangler";
      return `Ugyldig verdi: her skal det stå ${TYPES[issue.expected] ?? "noe annet"}`;
    case "too_small": {
      const min = String(issue.minimum);
      if (issue.origin === "string") return `Teksten må ha minst ${min} tegn`;
      if (issue.origin === "array" || issue.origin === "set") return `Velg minst ${min}`;
      return issue.inclusive ? `Tallet må være minst ${min}` : `Tallet må være større enn ${min}`;
    }
    case "too_big": {
      const max = String(issue.maximum);
      if (issue.origin === "string") return `Teksten kan ikke være lengre enn ${max} tegn`;
      if (issue.origin === "array" || issue.origin === "set") return `Det kan ikke være flere enn ${max}`;
      if (issue.origin === "file") return "Filen er for stor";
      return issue.inclusive ? `Tallet kan ikke være større enn ${max}` : `Tallet må være mindre enn ${max}`;
    }
    case "invalid_value":
      return "Ugyldig valg";
    case "invalid_format":
      return FORMATS[issue.format] ?? "Ugyldig format";
    case "not_multiple_of":
      return "Ugyldig tall";
    case "unrecognized_keys":
      return "Ukjente felter";
    default:
      return "Ugyldig verdi";
  }
}

z.config({ localeError: norwegianMessage });
// No compiled fast path: zod would probe `new Function` for it, which the Worker forbids and the
// web's Content-Security-Policy (no 'unsafe-eval') reports as a violation on every page that parses
// a form. Set here, before any schema is built: object schemas read the flag when constructed.
z.config({ jitless: true });

export { z };
