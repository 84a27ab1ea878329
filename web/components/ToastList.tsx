import { CircleAlert, CircleCheck, X } from "lucide-react";
import { type RefObject, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { cn } from "../lib/cn";
import { errorCodeText, serverErrorId } from "./ErrorCode";
import { type Toast, toastStore } from "../lib/toastStore";

/** How long a toast stays while nobody reads it (the former library's default). */
const DURATION_MS = 4000;
/** The newest toasts on screen at once; older ones show as these go. */
const VISIBLE = 3;

const subscribeVisibility = (notify: () => void) => {
  document.addEventListener("visibilitychange", notify);
  return () => document.removeEventListener("visibilitychange", notify);
};

/**
 * The toasts: a polite live region at the top of the screen, newest first, each with a close
 * button. A toast goes after 4 s; the time stands still while a pointer is over the toasts, focus is
 * in them or the tab is hidden. Alt+T moves focus to them and back when they are gone.
 */
export default function ToastList() {
  const toasts = useSyncExternalStore(toastStore.subscribe, toastStore.get, toastStore.get);
  // The region is in the page before its first toast: screen readers announce what is added to a
  // live region, not a region that arrives with its content.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const hidden = useSyncExternalStore(
    subscribeVisibility,
    () => document.hidden,
    () => false,
  );
  const list = useRef<HTMLOListElement>(null);
  const focusedBefore = useRef<HTMLElement | null>(null);
  const shown = ready ? toasts.slice(-VISIBLE).reverse() : [];

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.code !== "KeyT" || !list.current) return;
      event.preventDefault();
      if (!list.current.contains(document.activeElement)) focusedBefore.current = document.activeElement as HTMLElement | null;
      list.current.focus();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  const empty = shown.length === 0;
  useEffect(() => {
    if (!empty) return;
    // The list is gone, and with it any pointer or focus in it; focus goes back where it was.
    setHovered(false);
    setFocused(false);
    if (focusedBefore.current?.isConnected && document.activeElement === document.body)
      focusedBefore.current.focus({ preventScroll: true });
    focusedBefore.current = null;
  }, [empty]);

  return (
    <section
      aria-label="Varsler alt+T"
      tabIndex={-1}
      aria-live="polite"
      aria-relevant="additions text"
      aria-atomic="false"
      className="pointer-events-none fixed inset-x-0 top-4 z-[100] flex justify-center px-4"
    >
      {empty ? null : (
        <ol
          ref={list}
          tabIndex={-1}
          className="pointer-events-auto flex w-full max-w-sm flex-col gap-2 focus:outline-none"
          onPointerEnter={() => setHovered(true)}
          onPointerLeave={() => setHovered(false)}
          onFocus={() => setFocused(true)}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget)) setFocused(false);
          }}
        >
          {shown.map((toast) => (
            <ToastCard key={toast.key} toast={toast} paused={hovered || focused || hidden} list={list} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ToastCard({ toast, paused, list }: { toast: Toast; paused: boolean; list: RefObject<HTMLOListElement | null> }) {
  const remaining = useRef(DURATION_MS);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => toastStore.dismiss(toast.key), remaining.current);
    return () => {
      clearTimeout(timer);
      remaining.current -= Date.now() - started;
    };
  }, [paused, toast.key]);

  const close = () => {
    // Focus stays with the toasts (the list) rather than falling to the page's start.
    list.current?.focus({ preventScroll: true });
    toastStore.dismiss(toast.key);
  };
  const Icon = toast.kind === "error" ? CircleAlert : CircleCheck;
  const code = serverErrorId(toast.error);
  return (
    <li
      className={cn(
        "flex items-start gap-2.5 rounded-xl border px-4 py-3 text-sm shadow-lg",
        "transition-[opacity,translate] duration-200 starting:-translate-y-2 starting:opacity-0 motion-reduce:transition-none",
        toast.kind === "error" ? "border-red-200 bg-red-50 text-red-900" : "border-green-200 bg-green-50 text-green-900",
      )}
    >
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0" />
      <div className="min-w-0 flex-1 py-0.5">
        <p className="font-semibold">{toast.title}</p>
        {toast.description ? <p className="mt-0.5">{toast.description}</p> : null}
        {code ? <p className="mt-1 font-mono text-xs select-all">{errorCodeText(code)}</p> : null}
      </div>
      <button
        type="button"
        aria-label="Lukk varsel"
        onClick={close}
        className="-my-2 -mr-2.5 grid size-11 shrink-0 place-items-center rounded-lg hover:bg-black/5"
      >
        <X aria-hidden className="size-4" />
      </button>
    </li>
  );
}
