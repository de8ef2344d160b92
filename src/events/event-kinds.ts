// Which entities record events, under which kind (the resource name of the envelope). One line
// beside each entity (`recordsEvents(Customer, 'customer')`) makes its creates, updates and
// deletes events (record-events.ts). The kind may depend on the row (a CPO drop-out case).
export interface EventKind<T> {
  kind: string | ((entity: T) => string);
  /** The administration whose credentials and subscriptions see the event. */
  adminOf?: (entity: T) => string | null | undefined;
  /** The resource id of the envelope, when it is not the entity's `id`. */
  idOf?: (entity: T) => string;
  /** Properties whose changes are bookkeeping, not an update of the resource. */
  ignore?: string[];
}

const byEntity = new Map<string, EventKind<any>>();
const kinds = new Set<string>();

export function recordsEvents<T>(entity: { name: string }, kind: EventKind<T>['kind'], options: Omit<EventKind<T>, 'kind'> = {}): void {
  byEntity.set(entity.name, { kind, ...options });
  if (typeof kind === 'string') kinds.add(kind);
}

/** Kinds written by set-based writers (event-sql.ts) rather than by the ORM. */
export function declareEventKinds(...names: string[]): void {
  for (const name of names) kinds.add(name);
}

export function eventKindOf(entityName: string): EventKind<any> | undefined {
  return byEntity.get(entityName);
}

export function knownEventKinds(): string[] {
  return [...kinds].sort();
}
