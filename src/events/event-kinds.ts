// Which entities record events, under which kind (the resource name of the envelope). One line
// beside each entity (`recordsEvents(Customer, 'customer')`) makes its creates, updates and
// deletes events (record-events.ts). The kind may depend on the row (a CPO drop-out case).
// EVENT_KINDS is the one list of kinds: the recording code may only use these, and a webhook
// subscription may name any of them (decisions.md "Events").

export const EVENT_KINDS = [
  'billing_address', 'billing_box', 'cpo_calculation_input', 'cpo_charge_session', 'cpo_charge_session_reimbursement',
  'cpo_dropout_case', 'cpo_evse', 'cpo_evse_location', 'cpo_reimbursement_arrangement', 'cpo_reimbursement_link',
  'cpo_reimbursement_plan', 'cpo_subscription', 'cpo_subscription_evse_link', 'cpo_subscription_plan', 'customer',
  'direct_debit_mandate', 'end_user', 'end_user_authorization_customer', 'end_user_authorization_msp_token_subscription',
  'instance', 'msp_charge_session', 'msp_charge_session_priced', 'msp_dropout_case', 'msp_roaming_command',
  'msp_subscription_plan', 'msp_token', 'msp_token_link', 'msp_token_subscription', 'roaming_agreement',
  'roaming_connection', 'roaming_partner', 'webhook_subscription',
] as const;

export type EventKindName = (typeof EVENT_KINDS)[number];

export const isEventKind = (value: string): value is EventKindName => (EVENT_KINDS as readonly string[]).includes(value);

export interface EventKind<T> {
  kind: EventKindName | ((entity: T) => EventKindName);
  /** The administration whose credentials and subscriptions see the event. */
  adminOf?: (entity: T) => string | null | undefined;
  /** The resource id of the envelope, when it is not the entity's `id`. */
  idOf?: (entity: T) => string;
  /** Properties whose changes are bookkeeping, not an update of the resource. */
  ignore?: string[];
  /** Secret properties (their ciphertext included): a change is recorded as `secret: [hidden, hidden]`, never their values. */
  secret?: string[];
}

const byEntity = new Map<string, EventKind<any>>();

export function recordsEvents<T>(entity: { name: string }, kind: EventKind<T>['kind'], options: Omit<EventKind<T>, 'kind'> = {}): void {
  if (typeof kind === 'string' && !isEventKind(kind)) throw new Error(`${kind} is not in EVENT_KINDS`);
  byEntity.set(entity.name, { kind, ...options });
}

export function eventKindOf(entityName: string): EventKind<any> | undefined {
  return byEntity.get(entityName);
}

/** The kind an entity's row records, checked against the list (a row-dependent kind included). */
export function kindOf<T>(registered: EventKind<T>, entity: T): EventKindName {
  const kind = typeof registered.kind === 'string' ? registered.kind : registered.kind(entity);
  if (!isEventKind(kind)) throw new Error(`${kind} is not in EVENT_KINDS`);
  return kind;
}

export function knownEventKinds(): string[] {
  return [...EVENT_KINDS];
}
