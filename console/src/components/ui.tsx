import { useState, type ReactNode } from 'react';
import { useMutation, type UseMutationConfig } from 'react-relay';
import type { GraphQLTaggedNode, MutationParameters } from 'relay-runtime';
import { Confirm } from './Dialog.tsx';
import { ErrorBox } from './ErrorBox.tsx';

export const PAGE_SIZE = 25;

/** Cursor paging: the next page of a Relay connection, never the whole table. */
export function LoadMore({ hasNext, isLoadingNext, loadNext, label = 'Load more' }: { hasNext: boolean; isLoadingNext: boolean; loadNext: (count: number) => unknown; label?: string }) {
  if (!hasNext) return null;
  return (
    <div className="load-more">
      <button type="button" onClick={() => loadNext(PAGE_SIZE)} disabled={isLoadingNext}>{isLoadingNext ? 'Loading…' : label}</button>
    </div>
  );
}

export function PageHeader({ title, badges, actions, subtitle }: { title: ReactNode; badges?: ReactNode; actions?: ReactNode; subtitle?: ReactNode }) {
  return (
    <header className="page-header">
      <div>
        <h1>{title} {badges}</h1>
        {subtitle ? <p className="muted subtitle">{subtitle}</p> : null}
      </div>
      {actions ? <div className="actions">{actions}</div> : null}
    </header>
  );
}

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <section className="section" aria-labelledby={id ?? slug(title)}>
      <h2 id={id ?? slug(title)}>{title}</h2>
      {children}
    </section>
  );
}

export function slug(text: string): string {
  return `s-${text.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
}

/** Facts as a description list. */
export function Facts({ items }: { items: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {items.map(([term, value]) => (
        <div key={term}><dt>{term}</dt><dd>{value ?? <span className="muted">—</span>}</dd></div>
      ))}
    </dl>
  );
}

export function Placeholder({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="placeholder" role="note">
      <strong>{title}</strong>
      <div>{children}</div>
    </div>
  );
}

/**
 * A button for a mutation that changes money or state: a confirmation that says what will
 * happen, then the result or the error (message and field) beside the button.
 */
export function ActionButton<T extends MutationParameters>({ label, title, explain, mutation, variables, onDone, primary, danger, done }: {
  label: string;
  title?: string;
  explain: ReactNode;
  mutation: GraphQLTaggedNode;
  variables: T['variables'];
  onDone?: (response: T['response']) => void;
  primary?: boolean;
  danger?: boolean;
  done?: string;
}) {
  const [commit, inFlight] = useMutation<T>(mutation);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [result, setResult] = useState<string | null>(null);
  const run = () => {
    setError(null);
    setResult(null);
    const config: UseMutationConfig<T> = {
      variables,
      onCompleted: (response) => {
        setAsking(false);
        setResult(done ?? `${label}: done`);
        onDone?.(response);
      },
      onError: (caught) => {
        setAsking(false);
        setError(caught);
      },
    };
    commit(config);
  };
  return (
    <span className="action">
      <button type="button" className={primary ? 'primary' : danger ? 'danger' : undefined} onClick={() => setAsking(true)} disabled={inFlight}>{label}</button>
      {asking ? (
        <Confirm title={title ?? `${label}?`} action={label} onConfirm={run} onCancel={() => setAsking(false)} busy={inFlight}>{explain}</Confirm>
      ) : null}
      {result ? <span role="status" className="ok">{result}</span> : null}
      {error ? <ErrorBox error={error} title={`${label} failed`} /> : null}
    </span>
  );
}
