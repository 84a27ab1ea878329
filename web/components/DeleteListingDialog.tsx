import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { buttonClasses } from "./ui/Button";

export interface DeleteListingDialogProps {
  /** The listing's title while the dialog is open; null closes it. */
  title: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The confirmation (docs/product.md "Profile") before a listing is deleted (profile list and the listing page). */
export function DeleteListingDialog({ title, onCancel, onConfirm }: DeleteListingDialogProps) {
  return (
    <AlertDialog.Root open={title !== null} onOpenChange={(open) => !open && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-40 bg-stone-900/50" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
          <AlertDialog.Title className="text-lg font-bold text-stone-900">Slette annonsen?</AlertDialog.Title>
          <AlertDialog.Description className="mt-2 text-stone-700">
            Er du sikker på at du vil slette denne annonsen? Denne handlingen kan ikke angres.
          </AlertDialog.Description>
          {title !== null ? <p className="mt-2 font-semibold break-words text-stone-900">{title}</p> : null}
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel className={buttonClasses("secondary")}>Avbryt</AlertDialog.Cancel>
            <AlertDialog.Action
              className="inline-flex min-h-11 items-center justify-center gap-2 rounded-xl bg-red-700 px-4 font-semibold text-white hover:bg-red-800"
              onClick={onConfirm}
            >
              Slett annonsen
            </AlertDialog.Action>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
