// The toasts on screen, as plain module state: raising one costs no library (the list that draws
// them is a small chunk of its own, loaded with the first toast; decision 104).
export type ToastKind = "success" | "error";

export interface Toast {
  /** Unique per toast shown: a replaced toast gets a new key, so its timer starts again. */
  key: number;
  /** Toasts with the same id replace each other (e.g. an effect that runs twice). */
  id?: string;
  kind: ToastKind;
  title: string;
  description?: string;
  /** The failure behind an error toast: the list shows a server error's request id (ErrorCode.tsx). */
  error?: unknown;
}

let toasts: readonly Toast[] = [];
let requested = false;
let nextKey = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((notify) => notify());

export const toastStore = {
  subscribe(notify: () => void): () => void {
    listeners.add(notify);
    return () => listeners.delete(notify);
  },
  /** The toasts raised and not yet dismissed, oldest first. */
  get: (): readonly Toast[] => toasts,
  /** Whether any toast was ever raised: the list's module loads then, not with the page. */
  requested: (): boolean => requested,
  add(kind: ToastKind, title: string, description?: string, id?: string, error?: unknown): void {
    requested = true;
    const toast: Toast = { key: nextKey++, id, kind, title, description, error };
    toasts = [...(id === undefined ? toasts : toasts.filter((t) => t.id !== id)), toast];
    emit();
  },
  dismiss(key: number): void {
    toasts = toasts.filter((t) => t.key !== key);
    emit();
  },
};
