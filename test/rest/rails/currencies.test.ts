// Amounts are kept with two decimals (money-math, every rounded amount, the documents): a currency
// without cents (JPY) or with three decimals (KWD) would be billed in amounts it does not have, so
// it is refused wherever a currency enters (decisions.md "Currencies", src/money/currency.ts).
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { configureBilling } from '../../helpers/billing-factories.ts';
import { createAdministration } from '../../helpers/factories.ts';
import { failure } from '../../schema/graphql.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
  await configureBilling(app, adminId);
});
test.after.always(async () => { await app?.close(); });

const CREATE_ADMIN = 'mutation ($i: AdministrationInput!) { createAdministration(input: $i) { databaseId } }';

for (const currency of ['JPY', 'KWD', 'CLF']) {
  test(`${currency}: an administration, a rate plan, a VAT accounting currency and an exchange rate in it are refused at the member`, async (t) => {
    t.like(await failure(app, CREATE_ADMIN, { i: { id: `adm-${currency.toLowerCase()}-${process.pid}`, name: 'No cents', currency, country: 'NL' } }),
      { code: 'invalid_input', param: '$.input.currency' });
    const plan = await app.request('POST', '/main/v1/rate-plan', { body: { name: 'No cents', currency } });
    t.like({ status: plan.status, ...plan.body }, { status: 400, param: '$.currency' });
    const settings = await app.request('POST', `/main/v1/administration/${adminId}/billing-settings`, { body: { vat_accounting_currency: currency } });
    t.like({ status: settings.status, ...settings.body }, { status: 400, param: '$.vat_accounting_currency' });
    const rate = await app.request('POST', `/main/v1/administration/${adminId}/billing-exchange-rate`, { body: { currency, date: '2026-11-01', rate: '150' } });
    t.like({ status: rate.status, ...rate.body }, { status: 400, param: '$.currency' });
    t.is((await app.request('GET', '/main/v1/rate-plan?page_size=1000')).body.items.filter((p: { name: string }) => p.name === 'No cents').length, 0);
  });
}

test('currencies with cents are taken as before', async (t) => {
  for (const currency of ['EUR', 'SEK', 'HUF']) {
    const plan = await app.request('POST', '/main/v1/rate-plan', { body: { name: `Cents ${currency}`, currency } });
    t.is(plan.status, 200, JSON.stringify(plan.body));
  }
  const settings = await app.request('POST', `/main/v1/administration/${adminId}/billing-settings`, { body: { vat_accounting_currency: 'SEK' } });
  t.is(settings.status, 200, JSON.stringify(settings.body));
  t.is((await app.request('POST', `/main/v1/administration/${adminId}/billing-exchange-rate`, { body: { currency: 'SEK', date: '2026-11-01', rate: '11.5' } })).status, 200);
});
