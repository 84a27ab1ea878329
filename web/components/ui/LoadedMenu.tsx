import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { useRef, type ReactNode } from "react";
import type { DeferredMenuProps, OpenedBy } from "./DeferredMenu";

/**
 * The Radix dropdown behind a `DeferredMenu`: its trigger is drawn like the plain button it
 * replaces, and it mounts open when that button was just pressed.
 */
export function LoadedMenu({
  trigger,
  openedBy,
  align,
  sideOffset,
  children,
}: DeferredMenuProps & { align: "start" | "end"; sideOffset: number; children: ReactNode }) {
  const focus = useFirstOpenFocus(openedBy);
  return (
    <DropdownMenu.Root modal={false} defaultOpen={openedBy !== undefined}>
      <DropdownMenu.Trigger {...trigger} />
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          ref={focus.ref}
          // Radix hands this on to its focus scope but leaves it out of the dropdown's public type
          // (the menu sets its own); tests/web/header.test.tsx fails if it stops working.
          {...({ onOpenAutoFocus: focus.onOpenAutoFocus } as object)}
          align={align}
          sideOffset={sideOffset}
          className="z-50 min-w-56 rounded-xl border border-stone-200 bg-white p-1.5 shadow-lg"
        >
          {children}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/**
 * For the menu's Content: on the open that mounted it, put focus where Radix would have (the first
 * item after a key, the menu itself after a click). Radix tracks the keyboard with listeners that
 * did not exist yet when that key was pressed, so it cannot tell on its own.
 */
function useFirstOpenFocus(openedBy: OpenedBy | undefined) {
  const first = useRef(openedBy);
  const content = useRef<HTMLDivElement>(null);
  const onOpenAutoFocus = (event: Event) => {
    const by = first.current;
    first.current = undefined;
    if (by !== "keyboard") return;
    event.preventDefault();
    content.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus({ preventScroll: true });
  };
  return { ref: content, onOpenAutoFocus };
}
