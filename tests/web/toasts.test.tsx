// The app's own toasts (decision 104): a polite live region named "Varsler", newest first, at most
// three, replaced by id, closed by "Lukk varsel", gone after 4 s unless a pointer or focus is on them.
import { act, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Toaster } from "../../web/components/Toaster";
import { toastError, toastSuccess } from "../../web/lib/toast";
import { toastStore } from "../../web/lib/toastStore";

afterEach(() => {
  act(() => toastStore.get().forEach((t) => toastStore.dismiss(t.key)));
  vi.useRealTimers();
});

// The first toast loads the list's code (its own chunk): on a busy machine that import can take
// longer than findBy's default second.
const region = () => screen.findByRole("region", { name: /Varsler/ }, { timeout: 5_000 });
const shownTitles = (list: HTMLElement) =>
  within(list)
    .getAllByRole("listitem")
    .map((li) => li.querySelector("p")?.textContent);

describe("toasts", () => {
  it("nothing is mounted before the first toast; then a polite region with the title and text", async () => {
    render(<Toaster />);
    expect(screen.queryByRole("region")).toBeNull();
    act(() => toastSuccess("Profil oppdatert", "Endringene er lagret."));
    const live = await region();
    expect(live).toHaveAttribute("aria-live", "polite");
    expect(await within(live).findByText("Profil oppdatert")).toBeInTheDocument();
    expect(within(live).getByText("Endringene er lagret.")).toBeInTheDocument();
  });

  it("shows the newest three, newest first; a toast with the same id replaces the earlier one", async () => {
    render(<Toaster />);
    act(() => {
      toastError("Feil", "en", { id: "a" });
      toastError("Feil 2");
      toastError("Feil 3");
      toastSuccess("Lagret", "to", { id: "a" });
    });
    const list = await within(await region()).findByRole("list");
    expect(shownTitles(list)).toEqual(["Lagret", "Feil 3", "Feil 2"]);
    act(() => toastSuccess("Ny"));
    await waitFor(() => expect(shownTitles(list)).toEqual(["Ny", "Lagret", "Feil 3"]));
  });

  it("'Lukk varsel' closes a toast; the next older one shows", async () => {
    render(<Toaster />);
    act(() => ["1", "2", "3", "4"].forEach((n) => toastSuccess(`Melding ${n}`)));
    const list = await within(await region()).findByRole("list");
    const newest = within(list).getAllByRole("listitem")[0];
    await userEvent.click(within(newest).getByRole("button", { name: "Lukk varsel" }));
    await waitFor(() => expect(shownTitles(list)).toEqual(["Melding 3", "Melding 2", "Melding 1"]));
  });

  it("goes after 4 s, and the time stands still while the pointer is over the toasts", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    render(<Toaster />);
    act(() => toastSuccess("Logget ut"));
    const live = await region();
    const title = await within(live).findByText("Logget ut");
    fireEvent.pointerEnter(within(live).getByRole("list"));
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(title).toBeInTheDocument();
    fireEvent.pointerLeave(within(live).getByRole("list"));
    await act(() => vi.advanceTimersByTimeAsync(3_000));
    expect(title).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    expect(within(live).queryByText("Logget ut")).toBeNull();
  });

  it("Alt+T moves focus to the toasts", async () => {
    render(<Toaster />);
    act(() => toastError("Feil", "Noe gikk galt."));
    const list = await within(await region()).findByRole("list");
    await userEvent.keyboard("{Alt>}t{/Alt}");
    expect(list).toHaveFocus();
  });
});
