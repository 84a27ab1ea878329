import * as AlertDialog from "@radix-ui/react-alert-dialog";
import type { ReactNode } from "react";
import { buttonClasses } from "./ui/Button";

export interface ConfirmDialogProps {
  open: boolean;
  /** The question ("Slette annonsen?"). */
  title: string;
  /** What happens, and that it cannot be undone. */
  description: ReactNode;
  /** Shown under the description (the listing's title). */
  children?: ReactNode;
  /** The action's own words, never "OK". */
  confirmLabel: string;
  /** Red for what removes something; the brand colour otherwise. */
  destructive?: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

// Its own classes, not the primary button's plus red: two background colours on one element resolve
// by stylesheet order, not by the order written.
const DESTRUCTIVE =
  "inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-red-700 px-4 font-semibold text-white hover:bg-red-800";

/**
 * The question before something that cannot be undone (deleting a listing, a held payment's refund
 * or payout): an alert dialog that keeps focus, opens on "Avbryt" (Radix focuses the cancel button),
 * and closes on Escape as a cancel.
 */
export function ConfirmDialog({ open, title, description, children, confirmLabel, destructive, onCancel, onConfirm }: ConfirmDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-stone-900">{title}</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">{description}</AlertDialog.Description>
          {children}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses("secondary")}>Avbryt</AlertDialog.Cancel>
            <AlertDialog.Action className={destructive ? DESTRUCTIVE : buttonClasses("primary")} onClick={onConfirm}>
              {confirmLabel}
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
