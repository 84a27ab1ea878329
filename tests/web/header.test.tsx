import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { Header } from "../../web/components/layout/Header";
import { chatKeys } from "../../web/api/chat";
import { formatUnreadCount } from "../../web/lib/useUnreadCount";
import { renderWithProviders, sessionFor } from "./utils";

async function openAccountMenu() {
  await userEvent.click(await screen.findByRole("button", { name: "Min konto" }));
  return screen.findByRole("menu");
}

describe("Header", () => {
  it("for a visitor: logo, read-only search, quick links, profile icon to /auth, CTA to /auth", () => {
    renderWithProviders(<Header />, { seed: { session: null } });

    expect(screen.getByRole("link", { name: "Lekebytte" })).toHaveAttribute("href", "/");
    const search = screen.getByRole("searchbox", { name: "Søk etter leker" });
    expect(search).toHaveAttribute("readonly");
    expect(screen.getByRole("link", { name: "Gi bort" })).toHaveAttribute("href", "/search?free=true");
    expect(screen.getByRole("link", { name: "Åpen for bytte" })).toHaveAttribute("href", "/search?trade=true");
    expect(screen.getByRole("link", { name: "Logg inn" })).toHaveAttribute("href", "/auth");
    expect(screen.getByRole("link", { name: "Legg ut en leke nå" })).toHaveAttribute("href", "/auth");
    expect(screen.getByRole("link", { name: "Meldinger" })).toHaveAttribute("href", "/messages");
    expect(screen.queryByRole("button", { name: "Min konto" })).not.toBeInTheDocument();
  });

  it.each([
    ["a visitor", null, ["Lekebytte", "Søk etter leker", "Meldinger", "Logg inn", "Gi bort", "Åpen for bytte", "Legg ut en leke nå"]],
    [
      "a user",
      sessionFor("user"),
      ["Lekebytte", "Søk etter leker", "Meldinger", "Min konto", "Gi bort", "Åpen for bytte", "Legg ut en leke nå"],
    ],
  ] as const)(
    "for %s, Tab follows the screen: logo, the search and the icons beside it, then the quick links below",
    async (_, session, expected) => {
      renderWithProviders(<Header />, { seed: { session } });
      if (session) await screen.findByRole("button", { name: "Min konto" });
      const user = userEvent.setup();
      const reached: string[] = [];
      for (let i = 0; i < expected.length; i++) {
        await user.tab();
        const el = document.activeElement as HTMLElement;
        reached.push(el.getAttribute("aria-label") ?? el.textContent?.trim() ?? "");
      }
      expect(reached).toEqual(expected);
    },
  );

  it("on /search, whose page has its own text field, shows no second search box", () => {
    renderWithProviders(<Header />, { seed: { session: null }, path: "/search?q=lego" });
    expect(screen.queryByRole("searchbox")).not.toBeInTheDocument();
    expect(screen.queryByRole("search")).not.toBeInTheDocument();
    // The quick links stay.
    expect(screen.getByRole("link", { name: "Gi bort" })).toHaveAttribute("href", "/search?free=true");
  });

  it("for a user: the CTA goes to /create-listing and the menu has no 'Moderasjon'", async () => {
    renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
    expect(screen.getByRole("link", { name: "Legg ut en leke nå" })).toHaveAttribute("href", "/create-listing");

    await openAccountMenu();
    expect(screen.getByRole("menuitem", { name: "Profil" })).toHaveAttribute("href", "/profile");
    expect(screen.getByRole("menuitem", { name: "Mine annonser" })).toHaveAttribute("href", "/my-listings");
    expect(screen.getByRole("menuitem", { name: "Logg ut" })).toBeInTheDocument();
    expect(screen.queryByRole("menuitem", { name: "Moderasjon" })).not.toBeInTheDocument();
  });

  it.each(["moderator", "admin"] as const)("for a %s: the menu has 'Moderasjon' to /moderation", async (role) => {
    renderWithProviders(<Header />, { seed: { session: sessionFor(role) } });
    await openAccountMenu();
    expect(screen.getByRole("menuitem", { name: "Moderasjon" })).toHaveAttribute("href", "/moderation");
  });

  it("shows the unread badge only for a known count above 0, capped at 99+", () => {
    const { queryClient } = renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
    expect(screen.getByRole("link", { name: "Meldinger" })).toBeInTheDocument();

    queryClient.setQueryData(chatKeys.unreadCount, 150);
    return screen.findByRole("link", { name: "Meldinger, 99+ uleste" }).then((link) => {
      expect(link).toHaveTextContent("99+");
      expect(formatUnreadCount(99)).toBe("99");
      expect(formatUnreadCount(100)).toBe("99+");
    });
  });

  // The menu's code (Radix) loads on its first opening (decision 102): until then a plain button
  // that must read and behave like Radix's closed trigger.
  it.each(["{Enter}", " ", "{ArrowDown}"])(
    "the account button, before its menu's code loads, opens on %s with focus on the first item",
    async (key) => {
      renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
      const button = await screen.findByRole("button", { name: "Min konto" });
      expect(button).toHaveAttribute("aria-haspopup", "menu");
      expect(button).toHaveAttribute("aria-expanded", "false");
      const user = userEvent.setup();
      button.focus();
      await user.keyboard(key);
      await screen.findByRole("menu");
      await waitFor(() => expect(screen.getByRole("menuitem", { name: "Profil" })).toHaveFocus());
      expect(screen.getByRole("button", { name: "Min konto" })).toHaveAttribute("aria-expanded", "true");
      // Escape closes it and gives focus back to the button, which opens it again.
      await user.keyboard("{Escape}");
      await waitFor(() => expect(screen.queryByRole("menu")).not.toBeInTheDocument());
      expect(screen.getByRole("button", { name: "Min konto" })).toHaveFocus();
      await user.keyboard("{Enter}");
      await waitFor(() => expect(screen.getByRole("menuitem", { name: "Profil" })).toHaveFocus());
    },
  );

  it("the account button, before its menu's code loads, opens on a click with focus on the menu itself", async () => {
    renderWithProviders(<Header />, { seed: { session: sessionFor("user") } });
    const menu = await openAccountMenu();
    await waitFor(() => expect(menu).toHaveFocus());
    expect(screen.getByRole("button", { name: "Min konto" })).toHaveAttribute("aria-expanded", "true");
  });
});
