// A plan-or-customer correction changes what sessions since its moment should have cost. The
// pricing engine registers a listener here to reprice them; the correction service notifies
// after its transaction committed, so a listener sees the corrected subscriptions.
import type { Em } from '../platform/orm.ts';

export interface SubscriptionCorrected {
  oldSubscriptionId: string;
  newSubscriptionId: string;
  /** The moment the correction applies: sessions from then on belong to the new subscription. */
  from: Date;
  /** Recorded with the correction; what it does is up to the listener. */
  recurringCostCorrection?: boolean;
}

export type SubscriptionCorrectedListener = (em: Em, event: SubscriptionCorrected) => void | Promise<void>;

const listeners = new Set<SubscriptionCorrectedListener>();

/** Registers a listener; the answer unregisters it. */
export function onSubscriptionCorrected(listener: SubscriptionCorrectedListener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** Calls every listener in registration order, one after the other. */
export async function notifySubscriptionCorrected(em: Em, event: SubscriptionCorrected): Promise<void> {
  for (const listener of [...listeners]) await listener(em, event);
}
