import { Component, type ErrorInfo, type ReactNode } from 'react';
import { errorItems } from '../relay/errors.ts';

/** The error's message, and the field it concerns (`param`) and its code where the API names them. */
export function ErrorBox({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const items = errorItems(error);
  return (
    <div className="error" role="alert">
      <strong>{title}</strong>
      <ul>
        {items.map((item, i) => (
          <li key={i}>
            <span className="error-message">{item.message}</span>
            {item.param ? <> — field <code className="error-field">{item.param}</code></> : null}
            {item.code ? <> <span className="muted">({item.code})</span></> : null}
            {item.details?.length ? (
              <ul>{item.details.map((d, j) => <li key={j}>{d.message}{d.param ? <> — field <code>{d.param}</code></> : null}</li>)}</ul>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

interface BoundaryState { error: unknown }

/** Shows a failed query in place of the page; a new location (`resetKey`) tries again. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, BoundaryState & { key: string }> {
  state: BoundaryState & { key: string } = { error: null, key: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error };
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: BoundaryState & { key: string }) {
    return props.resetKey !== state.key ? { error: null, key: props.resetKey } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error(error, info.componentStack);
  }

  render() {
    if (this.state.error) {
      return (
        <>
          <ErrorBox error={this.state.error} title="This page could not be loaded" />
          <button type="button" onClick={() => this.setState({ error: null })}>Try again</button>
        </>
      );
    }
    return this.props.children;
  }
}
