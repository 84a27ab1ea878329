import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { Activity, ArrowLeftRight, Bookmark, Gift, Heart, List, LogOut, Shield, UserRound, type LucideIcon } from "lucide-react";
import { Link } from "../Link";
import { formatNewCount } from "../../../domain/new-count";
import type { SessionUser } from "../../api/auth";
import { isModerator } from "../../lib/useSession";
import { useSignOut } from "../../lib/useSignOut";
import type { DeferredMenuProps } from "../ui/DeferredMenu";
import { LoadedMenu } from "../ui/LoadedMenu";
import { badgeClasses } from "./badge";

const itemClasses =
  "flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-base text-stone-900 select-none data-[highlighted]:bg-brand-50 data-[highlighted]:text-brand-900";

const SAVED_SEARCHES = "/lagrede-sok";
const GIVEAWAY_PLACES = "/mine-koplasser";

/** The account menu's pages for every signed-in user. */
const LINKS: { to: string; label: string; icon: LucideIcon }[] = [
  { to: "/profile", label: "Profil", icon: UserRound },
  { to: "/my-listings", label: "Mine annonser", icon: List },
  { to: "/favoritter", label: "Favoritter", icon: Heart },
  { to: SAVED_SEARCHES, label: "Lagrede søk", icon: Bookmark },
  { to: GIVEAWAY_PLACES, label: "Mine køplasser", icon: Gift },
  { to: "/trade-history", label: "Byttehistorikk", icon: ArrowLeftRight },
];
const MODERATION = { to: "/moderation", label: "Moderasjon", icon: Shield };
/** The operator's page, for admins (docs/decisions/134-operations-page.md). */
const DRIFT = { to: "/admin/drift", label: "Drift", icon: Activity };

/** The menu's pages for this user: staff get their pages after everyone's. */
function linksFor(user: SessionUser) {
  return [...LINKS, ...(isModerator(user) ? [MODERATION] : []), ...(user.role === "admin" ? [DRIFT] : [])];
}

/**
 * The signed-in user's account menu: loaded when first opened (`AccountMenu`, decision 102), which
 * counts the news and draws the button.
 */
export default function UserMenu({
  user,
  newSearches,
  giveawayNotices,
  trigger,
  openedBy,
}: { user: SessionUser; newSearches: number; giveawayNotices: number } & DeferredMenuProps) {
  const handleSignOut = useSignOut();
  const name = user.display_name?.trim() || user.email;
  const badges: Record<string, { count: number; label: string }> = {
    [SAVED_SEARCHES]: { count: newSearches, label: "med nye treff" },
    [GIVEAWAY_PLACES]: { count: giveawayNotices, label: "nye" },
  };

  return (
    <LoadedMenu trigger={trigger} openedBy={openedBy} align="end" sideOffset={6}>
      <DropdownMenu.Label className="truncate px-3 py-2 text-sm text-stone-700">{name}</DropdownMenu.Label>
      <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
      {linksFor(user).map(({ to, label, icon: Icon }) => {
        const counted = badges[to];
        const badge = counted && counted.count > 0 ? formatNewCount(counted.count) : null;
        return (
          <DropdownMenu.Item key={to} asChild className={itemClasses}>
            <Link to={to} aria-label={badge ? `${label}, ${badge} ${counted.label}` : undefined}>
              <Icon aria-hidden="true" className="size-5" />
              {label}
              {/* The space keeps the visible text ("Lagrede søk 1") inside the accessible name. */}
              {badge ? " " : null}
              {badge ? (
                <span aria-hidden="true" className={`ml-auto min-w-6 px-1.5 ${badgeClasses}`}>
                  {badge}
                </span>
              ) : null}
            </Link>
          </DropdownMenu.Item>
        );
      })}
      <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
      <DropdownMenu.Item className={itemClasses} onSelect={() => void handleSignOut()}>
        <LogOut aria-hidden="true" className="size-5" />
        Logg ut
      </DropdownMenu.Item>
    </LoadedMenu>
  );
}
