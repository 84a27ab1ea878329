import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { ArrowLeftRight, CircleUser, Heart, List, LogOut, Shield, UserRound, type LucideIcon } from "lucide-react";
import { Link } from "react-router-dom";
import type { SessionUser } from "../../api/session";
import { isModerator } from "../../lib/useSession";
import { useSignOut } from "../../lib/useSignOut";
import { iconButtonClasses } from "./iconButton";

const itemClasses =
  "flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-base text-stone-900 outline-none select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

/** The account menu's pages for every signed-in user. */
const LINKS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: "/profile", label: "Profil", icon: UserRound },
  { to: "/my-listings", label: "Mine annonser", icon: List },
  { to: "/favoritter", label: "Favoritter", icon: Heart },
  { to: "/trade-history", label: "Byttehistorikk", icon: ArrowLeftRight },
];
const MODERATION = { to: "/moderation", label: "Moderasjon", icon: Shield };

/** The signed-in user's account menu (loaded lazily: visitors never download Radix). */
export default function UserMenu({ user }: { user: SessionUser }) {
  const handleSignOut = useSignOut();
  const name = user.display_name?.trim() || user.email;

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={iconButtonClasses} aria-label="Min konto">
        <CircleUser aria-hidden="true" className="size-6" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="truncate px-3 py-2 text-sm text-stone-700">{name}</DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
          {(isModerator(user) ? [...LINKS, MODERATION] : LINKS).map(({ to, label, icon: Icon }) => (
            <DropdownMenu.Item key={to} asChild className={itemClasses}>
              <Link to={to}>
                <Icon aria-hidden="true" className="size-5" />
                {label}
              </Link>
            </DropdownMenu.Item>
          ))}
          <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
          <DropdownMenu.Item className={itemClasses} onSelect={() => void handleSignOut()}>
            <LogOut aria-hidden="true" className="size-5" />
            Logg ut
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
