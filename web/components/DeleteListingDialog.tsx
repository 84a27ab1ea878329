import { ConfirmDialog } from "./ConfirmDialog";

export interface DeleteListingDialogProps {
  /** The listing's title while the dialog is open; null closes it. */
  title: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

/** The confirmation (docs/product.md "Profile") before a listing is deleted (profile list and the listing page). */
export function DeleteListingDialog({ title, onCancel, onConfirm }: DeleteListingDialogProps) {
  return (
    <ConfirmDialog
      open={title !== null}
      title="Slette annonsen?"
      description="Er du sikker på at du vil slette denne annonsen? Denne handlingen kan ikke angres."
      confirmLabel="Slett annonsen"
      destructive
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      {title !== null ? <p className="mt-2 font-semibold break-words text-stone-900">{title}</p> : null}
    </ConfirmDialog>
  );
}
