import * as Dialog from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import type { ReactNode } from "react";
import { Button } from "./ui/Button";

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
}

/** A centred dialog with a title and a close button (the report and moderation dialogs). */
export function Modal({ open, onOpenChange, title, description, children }: ModalProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 max-h-[90dvh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-2">
            <Dialog.Title className="text-lg font-bold text-stone-900">{title}</Dialog.Title>
            <Dialog.Close
              aria-label="Lukk"
              className="-mt-2 -mr-2 inline-flex size-11 items-center justify-center rounded-full text-stone-700 hover:bg-stone-100"
            >
              <X aria-hidden="true" className="size-5" />
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className="mt-1 text-sm text-stone-700">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * A labelled select and textarea style shared by the dialogs' forms: the inputs' border (3:1 against
 * white) and the app's one focus ring (styles.css :focus-visible), as the other fields.
 */
export const fieldClasses =
  "block w-full rounded-xl border border-stone-500 bg-white px-3 py-2.5 text-base text-stone-900 focus-visible:border-brand-700 aria-invalid:border-red-700";

/** A dialog form's "Avbryt" and its submit button ("Sender..." while sending). */
export function ModalFormActions({ onCancel, sending, submitLabel }: { onCancel: () => void; sending: boolean; submitLabel: string }) {
  return (
    <div className="flex justify-end gap-2">
      <Button type="button" variant="secondary" onClick={onCancel}>
        Avbryt
      </Button>
      <Button type="submit" disabled={sending}>
        {sending ? "Sender..." : submitLabel}
      </Button>
    </div>
  );
}
