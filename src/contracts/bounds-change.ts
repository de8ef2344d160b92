// A change of a contract's validity bounds, as a recurring cost correction reads it (CPO and MSP
// subscriptions): the periods from the earliest moment it affects are billed again.

/** A contract's validity: [from, until), until null: open-ended. */
export type Bounds = { from: Date; until: Date | null };

/** An update's options: `recurringCostCorrection` bills already billed periods again (false: they stay as billed). */
export interface CorrectionOption { recurringCostCorrection?: boolean | null }

/** The earliest moment whose fees a change of validity bounds affects; null when the bounds did not change. */
export function affectedFrom(before: Bounds, after: Bounds): Date | null {
  const moments: Date[] = [];
  if (before.from.getTime() !== after.from.getTime()) moments.push(before.from, after.from);
  if ((before.until?.getTime() ?? null) !== (after.until?.getTime() ?? null)) {
    for (const until of [before.until, after.until]) if (until) moments.push(until);
  }
  return moments.length ? new Date(Math.min(...moments.map((m) => m.getTime()))) : null;
}
