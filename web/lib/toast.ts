// sonner (~9 KB gzipped) loads on the first toast, not with the page: most visits never toast.
// The Toaster mounts once it is requested, and sonner replays toasts raised before it subscribed.
type Sonner = typeof import("sonner");

let sonner: Promise<Sonner> | undefined;
const listeners = new Set<() => void>();

export function loadSonner(): Promise<Sonner> {
  if (!sonner) {
    sonner = import("sonner");
    listeners.forEach((notify) => notify());
  }
  return sonner;
}

/** For useSyncExternalStore: whether anything has asked for sonner yet. */
export const sonnerRequested = {
  subscribe(notify: () => void): () => void {
    listeners.add(notify);
    return () => listeners.delete(notify);
  },
  get(): boolean {
    return sonner !== undefined;
  },
};

export interface ToastOptions {
  /** Toasts with the same id replace each other (e.g. an effect that runs twice). */
  id?: string;
}

/** Error toast in sonner's destructive style; the title is "Feil" unless the screen names another (docs/style.md "Texts and formats"). */
export function toastError(title: string = "Feil", description?: string, options: ToastOptions = {}): void {
  void loadSonner().then(({ toast }) => toast.error(title, { description, id: options.id }));
}

export function toastSuccess(title: string, description?: string, options: ToastOptions = {}): void {
  void loadSonner().then(({ toast }) => toast.success(title, { description, id: options.id }));
}
