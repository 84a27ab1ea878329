import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeftRight, Bookmark, CircleUser, Gift, Heart, List, LogOut, Shield, UserRound, type LucideIcon } from "lucide-react";
import { Link } from "react-router-dom";
import { formatNewCount } from "../../../domain/saved-searches";
import type { SessionUser } from "../../api/auth";
import { isModerator } from "../../lib/useSession";
import { useSignOut } from "../../lib/useSignOut";
import { unseenGiveawaysQuery } from "../../api/giveaways";
import { savedSearchBadgeQuery } from "../../api/saved-searches";
import { iconButtonClasses } from "./iconButton";

const badgeClasses = "rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white";

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

/** The signed-in user's account menu (loaded lazily: visitors never download Radix). */
export default function UserMenu({ user }: { user: SessionUser }) {
  const handleSignOut = useSignOut();
  const name = user.display_name?.trim() || user.email;
  // Saved searches with an alert that have new matches since their last visit (decision 041).
  const newSearches = useQuery(savedSearchBadgeQuery()).data ?? 0;
  // Give-away queues where the giver has moved since the user last looked (decision 075).
  const giveawayNotices = useQuery(unseenGiveawaysQuery()).data ?? 0;
  const newLabel = [
    newSearches > 0 ? `${formatNewCount(newSearches)} ${newSearches === 1 ? "lagret søk" : "lagrede søk"} med nye treff` : null,
    giveawayNotices > 0 ? `${formatNewCount(giveawayNotices)} ${giveawayNotices === 1 ? "nytt køvarsel" : "nye køvarsler"}` : null,
  ]
    .filter(Boolean)
    .join(", ");
  const total = newSearches + giveawayNotices;
  const badges: Record<string, { count: number; label: string }> = {
    [SAVED_SEARCHES]: { count: newSearches, label: "med nye treff" },
    [GIVEAWAY_PLACES]: { count: giveawayNotices, label: "nye" },
  };

  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className={iconButtonClasses} aria-label={total > 0 ? `Min konto, ${newLabel}` : "Min konto"}>
        <CircleUser aria-hidden="true" className="size-6" />
        {total > 0 ? (
          <span aria-hidden="true" className={`absolute -top-0.5 -right-0.5 min-w-5 ${badgeClasses}`}>
            {formatNewCount(total)}
          </span>
        ) : null}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1.5 shadow-lg"
        >
          <DropdownMenu.Label className="truncate px-3 py-2 text-sm text-stone-700">{name}</DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-stone-200" />
          {(isModerator(user) ? [...LINKS, MODERATION] : LINKS).map(({ to, label, icon: Icon }) => {
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
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
