export interface DemoAccount {
  key: string;
  email: string;
  name: string;
  role: "user" | "moderator" | "admin";
  postalCode: string;
  /** The sender's address when this account sends a parcel. */
  streetAddress: string;
}
export declare const DEMO_PASSWORD: string;
export declare const DEMO_ACCOUNTS: DemoAccount[];
export declare const SYSTEM_USER: { id: string; email: string; name: string };
export declare function formatDemoLogins(): string[];
