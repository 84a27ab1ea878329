// The permission matrix (./run.ts; docs/security.md "How it is tested") for what everyone may read,
// signing up and signing in, Vipps Login, the links of account mails, the newsletter and the contact
// form. Each row is asked as every role and must answer the expected status; a refusal must change
// nothing, and the API's refusals say why in Norwegian.
import { beforeAll, describe } from "vitest";
import { PUBLIC_AND_AUTH_ROWS } from "./rows/public-and-auth";
import { createSignInUser, walkRows } from "./run";

beforeAll(createSignInUser);

describe("permission matrix", () => {
  walkRows(PUBLIC_AND_AUTH_ROWS);
});
