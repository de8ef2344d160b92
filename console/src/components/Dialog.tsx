import { useEffect, useId, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** A modal dialog: role=dialog, labelled by its title, Escape closes, focus moves in and back. */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const titleId = useId();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus], button, input, select, textarea');
    first?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
      if (event.key === 'Tab' && ref.current) {
        const focusable = [...ref.current.querySelectorAll<HTMLElement>('button, input, select, textarea, a[href]')];
        if (!focusable.length) return;
        const [firstEl, lastEl] = [focusable[0]!, focusable[focusable.length - 1]!];
        if (event.shiftKey && document.activeElement === firstEl) { event.preventDefault(); lastEl.focus(); }
        else if (!event.shiftKey && document.activeElement === lastEl) { event.preventDefault(); firstEl.focus(); }
      }
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      before?.focus?.();
    };
  }, [onClose]);
  return createPortal(
    <div className="backdrop" onMouseDown={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={ref}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>,
    document.body,
  );
}

/** Asks before an action that changes money or state: says what will happen; the button names the action. */
export function Confirm({ title, action, children, onConfirm, onCancel, busy }: {
  title: string; action: string; children: ReactNode; onConfirm: () => void; onCancel: () => void; busy?: boolean;
}) {
  return (
    <Dialog title={title} onClose={onCancel}>
      <div className="dialog-body">{children}</div>
      <div className="actions">
        <button type="button" className="primary" onClick={onConfirm} disabled={busy} data-autofocus>{busy ? 'Working…' : action}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </Dialog>
  );
}
