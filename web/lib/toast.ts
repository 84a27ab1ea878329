// Toasts: raised here, drawn by `ToastList` (its own chunk, loaded with the first toast: most visits
// never toast). No toast library: a few lines do what the app needs (decision 104).
import { toastStore } from "./toastStore";

export interface ToastOptions {
  /** Toasts with the same id replace each other (e.g. an effect that runs twice). */
  id?: string;
}

export interface ErrorToastOptions extends ToastOptions {
  /** The failure behind the toast: a server error's request id is shown as "Feilkode" (decision 133). */
  error?: unknown;
}

/** Error toast in the destructive style; the title is "Feil" unless the screen names another (docs/style.md "Texts and formats"). */
export function toastError(title: string = "Feil", description?: string, options: ErrorToastOptions = {}): void {
  toastStore.add("error", title, description, options.id, options.error);
}

export function toastSuccess(title: string, description?: string, options: ToastOptions = {}): void {
  toastStore.add("success", title, description, options.id);
}
