import * as Dialog from "@radix-ui/react-dialog";
import { useRef, type ReactNode } from "react";
import { buttonClasses } from "./ui/Button";

export interface ConfirmDialogProps {
  open: boolean;
  /** The question ("Betale tilbake hele beløpet?"). */
  title: string;
  /** What happens, and that it cannot be undone. */
  description: ReactNode;
  /** The action's own words, never "OK". */
  confirmLabel: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/**
 * The question before something that cannot be undone (a held payment's refund or payout), with the
 * alert dialog's manners: role "alertdialog", focus on "Avbryt" when it opens, no closing by a tap
 * outside, Escape as a cancel. Built on the dialog primitive the pages that use it already load
 * (Modal): the alert-dialog package lives in the chunk of the listing page's owner tools ("Slette
 * annonsen?"), and a page of its own importing it splits that chunk, one more file in the listing
 * page's first load, which is at its size ceiling (tests/e2e/size-budget.spec.ts).
 */
export function ConfirmDialog({ open, title, description, confirmLabel, onCancel, onConfirm }: ConfirmDialogProps) {
  const cancel = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            cancel.current?.focus();
          }}
          onPointerDownOutside={(event) => event.preventDefault()}
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-lg font-bold text-stone-900">{title}</Dialog.Title>
          <Dialog.Description className="mt-2 text-stone-700">{description}</Dialog.Description>
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Dialog.Close ref={cancel} className={buttonClasses("secondary")}>
              Avbryt
            </Dialog.Close>
            <button type="button" className={buttonClasses("primary")} onClick={onConfirm}>
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
