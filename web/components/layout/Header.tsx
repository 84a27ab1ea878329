import { CircleUser, MessageCircle, Plus, Search } from "lucide-react";
import { Suspense, useLayoutEffect, type FormEvent, type KeyboardEvent } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { Link } from "../Link";
import { cn } from "../../lib/cn";
import { formatUnreadCount, useLiveInbox, useUnreadCount } from "../../lib/useUnreadCount";
import { SESSION_DEPENDENT, SESSION_PENDING_ATTRIBUTE, useSession } from "../../lib/useSession";
import { buttonClasses } from "../ui/Button";
import { iconButtonClasses } from "./iconButton";
import { LogoMark } from "./Logo";
import { lazyCode } from "../../lib/missingCode";

const AccountMenu = lazyCode(() => import("./AccountMenu"));

const quickLinkClasses =
  "inline-flex min-h-9 items-center rounded-full border border-brand-200 bg-brand-50 px-2.5 text-sm font-semibold whitespace-nowrap text-brand-800 sm:px-3 hover:bg-brand-100";

export function Header() {
  const session = useSession();
  const signedIn = session.status === "signed-in";
  // index.html hides the controls that depend on who is signed in while a signed-in browser's session
  // is being checked (<html data-session="pending">). Signed out after all (the hint was stale), a
  // visitor's controls are the right ones, wherever they are: shown at once. Signed in, the page
  // lifts it (RootLayout's SessionShown), once its own controls are rendered for this person.
  useLayoutEffect(() => {
    if (session.status === "signed-out") document.documentElement.removeAttribute(SESSION_PENDING_ATTRIBUTE);
  }, [session.status]);
  const unread = useUnreadCount(signedIn);
  useLiveInbox(signedIn);
  const navigate = useNavigate();
  // /search has its own text field at the top of the page: one search box there, not two.
  const path = useLocation().pathname.replace(/\/+$/, "");
  const onSearchPage = path === "/search";
  // A chat on a phone keeps the screen for its messages: the header is its top row only (logo,
  // messages, account); search and the shortcuts come back from `md` (decision 088).
  const inChat = path.startsWith("/chat/");

  const openSearch = () => navigate("/search");
  const onSearchSubmit = (event: FormEvent) => {
    event.preventDefault();
    openSearch();
  };
  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === " ") {
      event.preventDefault();
      openSearch();
    }
  };

  const messagesLabel = unread && unread > 0 ? `Meldinger, ${formatUnreadCount(unread)} uleste` : "Meldinger";

  return (
    <header className="border-b border-stone-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2 md:gap-y-3 md:py-3">
        {/* On a phone the mark alone (the name stays the link's name), so the search box fits beside it and the header is two short rows. */}
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-lg text-xl font-extrabold tracking-tight text-brand-800">
          <LogoMark className="size-9" />
          <span className="sr-only sm:not-sr-only">Lekebytte</span>
        </Link>

        {/* Read-only: the box only opens the search page, where the real text field is. */}
        {onSearchPage ? (
          <div className="flex-1" />
        ) : (
          <form role="search" onSubmit={onSearchSubmit} className={cn("min-w-0 flex-1", inChat && "hidden md:block")}>
            <div className="relative">
              <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-5 -translate-y-1/2 text-stone-600" />
              <input
                type="search"
                readOnly
                aria-label="Søk etter leker"
                placeholder="Søk etter leker..."
                onClick={openSearch}
                onKeyDown={onSearchKeyDown}
                className="block min-h-11 w-full cursor-pointer rounded-full border border-stone-500 bg-stone-50 pr-4 pl-10 text-base text-stone-900 placeholder:text-stone-600 hover:border-brand-700"
              />
            </div>
          </form>
        )}

        <div className="ml-auto flex shrink-0 items-center gap-1">
          <Link to="/messages" className={iconButtonClasses} aria-label={messagesLabel}>
            <MessageCircle aria-hidden="true" className="size-6" />
            {unread && unread > 0 ? (
              <span
                aria-hidden="true"
                className="absolute -top-0.5 -right-0.5 min-w-5 rounded-full bg-red-700 px-1 text-center text-xs leading-5 font-bold text-white"
              >
                {formatUnreadCount(unread)}
              </span>
            ) : null}
          </Link>
          {session.status === "signed-in" ? (
            <Suspense fallback={<AccountButtonPlaceholder />}>
              <AccountMenu user={session.user} />
            </Suspense>
          ) : (
            <Link to="/auth" className={iconButtonClasses} aria-label="Logg inn" {...SESSION_DEPENDENT}>
              <CircleUser aria-hidden="true" className="size-6" />
            </Link>
          )}
        </div>

        {/* Its own row at every width, after the icons in the page as on screen, so Tab follows what the eye sees; wraps rather than overflows on the narrowest phones. */}
        <nav aria-label="Snarveier" className={cn("w-full flex-wrap items-center gap-1.5 sm:gap-2", inChat ? "hidden md:flex" : "flex")}>
          <Link to="/search?free=true" className={quickLinkClasses}>
            Gi bort
          </Link>
          <Link to="/search?trade=true" className={quickLinkClasses}>
            Åpen for bytte
          </Link>
          <Link
            to={session.status === "signed-out" ? "/auth" : "/create-listing"}
            className={buttonClasses("accent", "sm", "ml-auto gap-1.5 rounded-full px-3 whitespace-nowrap")}
          >
            <Plus aria-hidden="true" className="hidden size-4 sm:block" />
            Legg ut en leke nå
          </Link>
        </nav>
      </div>
    </header>
  );
}

/** Same look as the menu trigger while its code loads (a moment; hidden from assistive tech). */
function AccountButtonPlaceholder() {
  return (
    <span aria-hidden="true" className={cn(iconButtonClasses, "text-stone-500")}>
      <CircleUser className="size-6" />
    </span>
  );
}
