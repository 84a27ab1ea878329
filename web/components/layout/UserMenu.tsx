import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { ArrowLeftRight, CircleUser, Heart, List, LogOut, Shield, UserRound } from "lucide-react";
import { Link } from "react-router-dom";
import type { SessionUser } from "../../api/session";
import { isModerator } from "../../lib/useSession";
import { useSignOut } from "../../lib/useSignOut";
import { iconButtonClasses } from "./iconButton";

const itemClasses =
  "flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-base text-stone-900 outline-none select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

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
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/profile">
              <UserRound aria-hidden="true" className="size-5" />
              Profil
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/my-listings">
              <List aria-hidden="true" className="size-5" />
              Mine annonser
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/favoritter">
              <Heart aria-hidden="true" className="size-5" />
              Favoritter
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={itemClasses}>
            <Link to="/trade-history">
              <ArrowLeftRight aria-hidden="true" className="size-5" />
              Byttehistorikk
            </Link>
          </DropdownMenu.Item>
          {isModerator(user) ? (
            <DropdownMenu.Item asChild className={itemClasses}>
              <Link to="/moderation">
                <Shield aria-hidden="true" className="size-5" />
                Moderasjon
              </Link>
            </DropdownMenu.Item>
          ) : null}
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
