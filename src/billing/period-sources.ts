// The item sources billed per period (recurring fees): run when a period starts and again when
// its review-set closes. A new periodic source adds one line here.
import type { Em } from '../platform/orm.ts';
import { billCpoSubscriptionFees } from './sources/cpo-subscription-fee.source.ts';
import { billSubscriptionFees, type FeePeriod } from './sources/subscription-fee.source.ts';

const PERIOD_SOURCES: ((em: Em, fp: FeePeriod) => Promise<void>)[] = [billSubscriptionFees, billCpoSubscriptionFees];

export async function billPeriodFees(em: Em, fp: FeePeriod): Promise<void> {
  for (const bill of PERIOD_SOURCES) await bill(em, fp);
}
