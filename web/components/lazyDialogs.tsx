import { Suspense, useState, type ComponentType } from "react";
import type { ReportDialogProps } from "./ReportDialog";
import type { ReviewTarget } from "./reviews/ReviewDialog";
import { lazyCode } from "../lib/missingCode";

/**
 * A dialog whose code (form, schema, Radix dialog) loads the first time it opens, not with the page:
 * pages keep their first load small (decision 102). Once opened it stays mounted, so closing it
 * animates and returns focus as the dialog itself does.
 */
function lazyDialog<P extends { target: unknown }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazyCode(() => load().then((component) => ({ default: component })));
  return function LazyDialog(props: P) {
    const [opened, setOpened] = useState(false);
    if (props.target !== null && !opened) setOpened(true);
    if (!opened && props.target === null) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}

export const LazyReportDialog = lazyDialog<ReportDialogProps>(() => import("./ReportDialog").then((m) => m.ReportDialog));

export const LazyReviewDialog = lazyDialog<{ target: ReviewTarget | null; onClose: () => void }>(() =>
  import("./reviews/ReviewDialog").then((m) => m.ReviewDialog),
);
