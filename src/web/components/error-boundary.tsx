import { House, RotateCw, TriangleAlert } from 'lucide-react';
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button } from '@/web/components/ui/button';

/** The screen's two ways out, in an object so tests can observe them. */
export const browserActions = {
  reload: () => window.location.reload(),
  goHome: () => window.location.assign('/'),
};

interface Props {
  children: ReactNode;
  /** When this changes (e.g. the location) a caught error is cleared and the children render again. */
  resetKey?: unknown;
  /** Fill the viewport (top level) or the page area (inside the signed-in shell). */
  fullScreen?: boolean;
}

interface State {
  error: Error | null;
  resetKey: unknown;
}

/** Seed section 8: the screen for an unexpected rendering error. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Unexpected rendering error', error, info.componentStack);
  }

  override render(): ReactNode {
    const { error } = this.state;
    if (!error) return this.props.children;
    return <ErrorScreen error={error} fullScreen={this.props.fullScreen ?? true} />;
  }
}

export function ErrorScreen({ error, fullScreen = true }: { error: Error; fullScreen?: boolean }) {
  const content = (
    <div className="w-full max-w-lg rounded-xl border bg-card p-8 text-center shadow-sm">
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-destructive/10 text-destructive">
        <TriangleAlert className="size-6" aria-hidden="true" />
      </div>
      <h1 className="font-semibold text-xl">Something went wrong</h1>
      <p className="mt-2 text-muted-foreground text-sm">
        The application encountered an unexpected error. This might be due to a server restart or temporary
        issue.
      </p>
      <p
        className="mt-4 break-words rounded-md bg-muted px-3 py-2 text-left font-mono text-foreground text-xs"
        data-testid="text-error-message"
      >
        {error.message || 'Unknown error'}
      </p>
      <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
        <Button onClick={() => browserActions.reload()} data-testid="button-reload">
          <RotateCw aria-hidden="true" />
          Reload Page
        </Button>
        <Button variant="outline" onClick={() => browserActions.goHome()} data-testid="button-go-home">
          <House aria-hidden="true" />
          Go Home
        </Button>
      </div>
    </div>
  );
  if (!fullScreen) return <div className="flex justify-center py-12">{content}</div>;
  return <main className="flex min-h-dvh items-center justify-center bg-background p-4">{content}</main>;
}
