import { useQuery } from "@tanstack/react-query";
import { CircleUser } from "lucide-react";
import { formatNewCount } from "../../../domain/new-count";
import type { SessionUser } from "../../api/auth";
import { savedSearchBadgeQuery, unseenGiveawaysQuery } from "../../api/account-badges";
import { DeferredMenu } from "../ui/DeferredMenu";
import { badgeClasses } from "./badge";
import { iconButtonClasses } from "./iconButton";

const loadUserMenu = () => import("./UserMenu");

/**
 * The signed-in user's account button with its counts (loaded lazily: visitors never download it).
 * The menu itself, Radix and all, loads when it is first opened (decision 102).
 */
export default function AccountMenu({ user }: { user: SessionUser }) {
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

  return (
    <DeferredMenu
      load={loadUserMenu}
      props={{ user, newSearches, giveawayNotices }}
      trigger={{
        className: iconButtonClasses,
        "aria-label": total > 0 ? `Min konto, ${newLabel}` : "Min konto",
        children: (
          <>
            <CircleUser aria-hidden="true" className="size-6" />
            {total > 0 ? (
              <span aria-hidden="true" className={`absolute -top-0.5 -right-0.5 min-w-5 ${badgeClasses}`}>
                {formatNewCount(total)}
              </span>
            ) : null}
          </>
        ),
      }}
    />
  );
}
