import { useState, type ComponentType, type KeyboardEvent, type MouseEvent, type ReactNode } from "react";

/** How a deferred menu was first opened: from the keyboard its first item gets focus, as Radix does. */
export type OpenedBy = "pointer" | "keyboard";

/** What the menu's button shows: the same on the plain button and on Radix's trigger. */
export interface MenuTriggerProps {
  className: string;
  "aria-label": string;
  children: ReactNode;
}

/** Props every deferred menu module's default export takes besides its own. */
export interface DeferredMenuProps {
  trigger: MenuTriggerProps;
  /** Set when the menu mounts because it was just opened: it mounts open. */
  openedBy?: OpenedBy;
}

type MenuModule<P> = { default: ComponentType<P & DeferredMenuProps> };

// One import per module for the whole page (a chat has one menu per message).
const loads = new Map<() => Promise<unknown>, Promise<unknown>>();
const loaded = new Map<() => Promise<unknown>, unknown>();

function prefetch<P>(load: () => Promise<MenuModule<P>>): Promise<MenuModule<P>> {
  let pending = loads.get(load) as Promise<MenuModule<P>> | undefined;
  if (!pending) {
    pending = load().then(
      (module) => (loaded.set(load, module), module),
      (error: unknown) => {
        // Offline for a moment: the next press tries again.
        loads.delete(load);
        throw error;
      },
    );
    loads.set(load, pending);
  }
  return pending;
}

/**
 * A dropdown menu whose code (Radix's dropdown with its positioning, about 30 KB gzipped) loads
 * when it is first opened, not with the page (decision 102). Until then a plain button that looks
 * and reads like Radix's closed trigger; hovering or focusing it fetches the code, and a click,
 * Enter, Space or ArrowDown opens the menu as soon as the code is there, like the trigger would.
 */
export function DeferredMenu<P extends object>({
  load,
  props,
  trigger,
}: {
  /** A module-level `() => import("./XMenu")`, so every instance shares one import. */
  load: () => Promise<MenuModule<P>>;
  props: P;
  trigger: MenuTriggerProps;
}) {
  const [open, setOpen] = useState<{ Menu: MenuModule<P>["default"]; openedBy: OpenedBy } | null>(null);
  if (open) return <open.Menu {...props} trigger={trigger} openedBy={open.openedBy} />;

  const show = (openedBy: OpenedBy) => {
    const ready = loaded.get(load) as MenuModule<P> | undefined;
    // Already fetched (hover or focus): open in this very event, as Radix's trigger does.
    if (ready) setOpen({ Menu: ready.default, openedBy });
    else
      void prefetch(load).then(
        (module) => setOpen({ Menu: module.default, openedBy }),
        () => undefined,
      );
  };
  const warm = () => void prefetch(load).catch(() => undefined);
  return (
    <button
      type="button"
      aria-haspopup="menu"
      aria-expanded={false}
      data-state="closed"
      {...trigger}
      onPointerEnter={warm}
      onFocus={warm}
      // A click without a pointer (detail 0) comes from assistive tech: treat it as the keyboard.
      onClick={(event: MouseEvent) => show(event.detail === 0 ? "keyboard" : "pointer")}
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key !== "Enter" && event.key !== " " && event.key !== "ArrowDown") return;
        event.preventDefault();
        show("keyboard");
      }}
    />
  );
}
