import { Component, type ErrorInfo, type ReactNode } from "react";
import { GenericError, reloadPage } from "../routes/fallback/GenericError";

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Called by "Prøv igjen" after the error is cleared; reloads the page by default. */
  onRetry?: () => void;
  /** Outside the page layout: wrap the screen in its own main landmark. */
  standalone?: boolean;
}

interface ErrorBoundaryState {
  error: unknown;
  hasError: boolean;
}

/** Shows "Noe gikk galt" when rendering fails anywhere below it. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  state: ErrorBoundaryState = { error: null, hasError: false };

  static getDerivedStateFromError(error: unknown): ErrorBoundaryState {
    return { error, hasError: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error("Render error caught by ErrorBoundary", error, info.componentStack);
  }

  private retry = (): void => {
    this.setState({ error: null, hasError: false });
    (this.props.onRetry ?? reloadPage)();
  };

  render(): ReactNode {
    if (!this.state.hasError) return this.props.children;
    const screen = <GenericError onRetry={this.retry} />;
    return this.props.standalone ? <main id="main">{screen}</main> : screen;
  }
}
