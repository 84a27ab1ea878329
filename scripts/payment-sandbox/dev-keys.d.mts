export declare const SANDBOX_KEYS: Readonly<{
  STRIPE_SECRET_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
  VIPPS_CLIENT_ID: string;
  VIPPS_CLIENT_SECRET: string;
  VIPPS_SUBSCRIPTION_KEY: string;
  VIPPS_MERCHANT_SERIAL_NUMBER: string;
  VIPPS_WEBHOOK_SECRET: string;
  BRING_API_UID: string;
  BRING_API_KEY: string;
  BRING_CUSTOMER_NUMBER: string;
  BRING_WEBHOOK_SECRET: string;
  HELTHJEM_CLIENT_ID: string;
  HELTHJEM_CLIENT_SECRET: string;
  HELTHJEM_SHOP_ID: string;
  HELTHJEM_WEBHOOK_SECRET: string;
}>;
export declare function sandboxPort(appPort: number): number;
export interface SandboxProviders {
  stripe: boolean;
  vipps: boolean;
  bring: boolean;
  helthjem: boolean;
}
export declare function sandboxProviders(vars: Record<string, string | undefined>, mode: string | undefined): SandboxProviders;
export declare function sandboxBindings(providers: SandboxProviders, base: string): Record<string, string>;
