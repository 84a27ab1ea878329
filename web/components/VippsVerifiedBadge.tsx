import { BadgeCheck } from "lucide-react";
import { VIPPS_VERIFIED } from "../../domain/vipps-login";
import { Badge } from "./ui/Badge";

/** "Verifisert med Vipps": a phone number Vipps vouched for (seller card, profiles; decision 128). */
export function VippsVerifiedBadge({ className }: { className?: string }) {
  return (
    <Badge tone="success" className={className}>
      <BadgeCheck aria-hidden="true" className="size-3.5" />
      {VIPPS_VERIFIED}
    </Badge>
  );
}
