import type { TestApp } from '../helpers/app.ts';
import { evcoCheckDigit } from '../../src/msp/evco-id.ts';
import { SubscriptionPlan } from '../../src/msp/subscription-plan.entity.ts';
import { TokenLink } from '../../src/msp/token-link.entity.ts';
import { TokenSubscription } from '../../src/msp/token-subscription.entity.ts';
import { Token } from '../../src/msp/token.entity.ts';
import { Administration } from '../../src/parties/administration.entity.ts';
import { Customer } from '../../src/parties/customer.entity.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';

let instance = 0;

/** A fresh, valid eMA ID with check digit: NL-GQL-<9 digits>-<check>. */
export function nextEvcoId(): string {
  const base = `NLGQL${String(++instance).padStart(9, '0')}`;
  return base + evcoCheckDigit(base);
}

export interface SeededSubscription {
  id: string;
  customerId: string;
  planId: string;
  links: { id: string; tokenId: string; evcoId: string }[];
}

/**
 * For each customer: subscriptions valid since 2026-01-01, each with tokens linked from their
 * start (the link's valid_from deferring to the subscription's), written directly through the ORM.
 */
export async function seedSubscriptions(
  app: TestApp, adminId: string, customerIds: string[], per = { subscriptions: 1, links: 1 },
): Promise<SeededSubscription[]> {
  const em = scopedEm(app.orm);
  const admin = em.getReference(Administration, adminId);
  const plan = em.create(SubscriptionPlan, { admin, name: `GraphQL plan ${++instance}` } as never);
  const seeded: SeededSubscription[] = [];
  for (const customerId of customerIds) {
    for (let s = 0; s < per.subscriptions; s++) {
      const subscription = em.create(TokenSubscription, {
        admin, plan, customer: em.getReference(Customer, customerId), validFrom: new Date('2026-01-01T00:00:00Z'),
      } as never);
      const links: SeededSubscription['links'] = [];
      for (let l = 0; l < per.links; l++) {
        const token = em.create(Token, {
          evcoId: nextEvcoId(), initialAdmin: admin, currentAdmin: admin, firstLinkedAt: new Date('2026-01-01T00:00:00Z'),
        } as never);
        const link = em.create(TokenLink, { admin, subscription, token } as never);
        links.push({ id: link.id, tokenId: token.id, evcoId: token.evcoId });
      }
      seeded.push({ id: subscription.id, customerId, planId: plan.id, links });
    }
  }
  await em.flush();
  return seeded;
}
