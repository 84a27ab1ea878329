import { Button } from "../../components/ui/Button";

/** "Avbryt" and the submit button of the profile's small forms, stacked on a phone. */
export function FormButtons({
  busy,
  label,
  busyLabel,
  onCancel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  onCancel: () => void;
}) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row">
      <Button type="button" variant="secondary" onClick={onCancel}>
        Avbryt
      </Button>
      <Button type="submit">{busy ? busyLabel : label}</Button>
    </div>
  );
}
