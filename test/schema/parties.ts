import type { TestApp } from '../helpers/app.ts';
import { Administration } from '../../src/parties/administration.entity.ts';
import { BillingAddress } from '../../src/parties/billing-address.entity.ts';
import { Customer } from '../../src/parties/customer.entity.ts';
import { DirectDebitMandate } from '../../src/parties/direct-debit-mandate.entity.ts';
import { scopedEm } from '../../src/access/admin-scope.ts';

/** Customers with billing addresses and mandates, written directly (fast, and independent of their REST routes). */
export async function seedCustomers(app: TestApp, adminId: string, count: number, children = { addresses: 0, mandates: 0 }): Promise<string[]> {
  const em = scopedEm(app.orm);
  const admin = em.getReference(Administration, adminId);
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const customer = em.create(Customer, { admin, name: `Seeded ${i}`, country: 'NL' } as never);
    for (let a = 0; a < children.addresses; a++) {
      em.create(BillingAddress, { customer, admin, city: `City ${i}.${a}` } as never);
    }
    for (let m = 0; m < children.mandates; m++) {
      em.create(DirectDebitMandate, {
        customer, admin, bankAccountName: `Account ${i}.${m}`, iban: 'NL91ABNA0417164300', validFrom: new Date(Date.UTC(2026, 0, 1 + m)),
      } as never);
    }
    ids.push(customer.id);
  }
  await em.flush();
  return ids;
}
