import type { RemoteName } from '@logovote/contracts';
import { Component, type ErrorInfo, type ReactNode } from 'react';

import { RemoteFallback } from './RemoteStatus';

type Props = {
  remote: RemoteName;
  /** When any of these change (navigation, retry), a shown error is cleared and the screen rendered again. */
  resetKeys: readonly unknown[];
  onRetry: () => void;
  children: ReactNode;
};

type State = { error: unknown; resetKeys: readonly unknown[] };

const changed = (a: readonly unknown[], b: readonly unknown[]) => a.length !== b.length || a.some((value, i) => !Object.is(value, b[i]));

/** Contains a remote's failure (load or render) to its own area. */
export class RemoteErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, resetKeys: this.props.resetKeys };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error: error ?? new Error('Unknown error') };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (changed(props.resetKeys, state.resetKeys)) return { error: null, resetKeys: props.resetKeys };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // eslint-disable-next-line no-console -- the user sees the fallback; the cause goes to the console for diagnosis
    console.error(`[LogoVote] remote "${this.props.remote}" is unavailable`, error, info.componentStack);
  }

  override render(): ReactNode {
    if (this.state.error) return <RemoteFallback remote={this.props.remote} onRetry={this.props.onRetry} />;
    return this.props.children;
  }
}
