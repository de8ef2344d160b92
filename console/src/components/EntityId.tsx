// Shift+Y on a single-entity page: a dialog with the id REST paths take, and a copy button.
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { Dialog } from './Dialog.tsx';

export interface Entity { type: string; restId: string; restPath?: string }

const EntityContext = createContext<{ set(entity: Entity | null): void } | null>(null);

/** A page names the entity it shows; Shift+Y then shows its id. */
export function useEntity(entity: Entity | null): void {
  const context = useContext(EntityContext);
  const key = entity ? `${entity.type}|${entity.restId}|${entity.restPath ?? ''}` : '';
  useEffect(() => {
    context?.set(entity);
    return () => context?.set(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}

function typing(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (element.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(element.tagName));
}

export function EntityIdProvider({ children }: { children: ReactNode }) {
  const [entity, setEntity] = useState<Entity | null>(null);
  const [open, setOpen] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.shiftKey && !event.ctrlKey && !event.metaKey && !event.altKey && event.key.toUpperCase() === 'Y' && !typing(event.target) && entity) {
        event.preventDefault();
        setCopied(null);
        setOpen(true);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [entity]);
  const copy = async () => {
    if (!entity) return;
    try {
      await navigator.clipboard.writeText(entity.restId);
      setCopied('Copied');
    } catch {
      const field = document.getElementById('entity-id-value') as HTMLInputElement | null;
      field?.select();
      setCopied('Selected: press Ctrl+C to copy');
    }
  };
  return (
    <EntityContext.Provider value={{ set: setEntity }}>
      {children}
      {open && entity ? (
        <Dialog title={`${entity.type} id`} onClose={() => setOpen(false)}>
          <label htmlFor="entity-id-value">The id REST paths take</label>
          <input id="entity-id-value" className="entity-id" readOnly value={entity.restId} onFocus={(e) => e.currentTarget.select()} />
          {entity.restPath ? <p className="muted">REST: <code>/main/v1{entity.restPath}</code></p> : null}
          <div className="actions">
            <button type="button" className="primary" onClick={copy} data-autofocus>Copy id</button>
            <button type="button" onClick={() => setOpen(false)}>Close</button>
          </div>
          <p role="status" className="muted">{copied ?? ''}</p>
        </Dialog>
      ) : null}
    </EntityContext.Provider>
  );
}
