export declare const SANDBOX_KEYS: Readonly<{
  STRIPE_SECRET_KEY: string;
  STRIPE_WEBHOOK_SECRET: string;
  VIPPS_CLIENT_ID: string;
  VIPPS_CLIENT_SECRET: string;
  VIPPS_SUBSCRIPTION_KEY: string;
  VIPPS_MERCHANT_SERIAL_NUMBER: string;
  VIPPS_WEBHOOK_SECRET: string;
}>;
export declare function sandboxPort(appPort: number): number;
