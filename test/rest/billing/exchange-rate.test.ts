// Setting an exchange rate (POST /administration/{id}/billing-exchange-rate) is a set of the rate of
// a currency on a date: a second call replaces it, also when the calls come at the same moment.
import test from 'ava';
import { startTestApp, type TestApp } from '../../helpers/app.ts';
import { createAdministration } from '../../helpers/factories.ts';

let app: TestApp;
let adminId: string;
test.before(async () => {
  app = await startTestApp();
  adminId = (await createAdministration(app)).id;
});
test.after.always(async () => { await app?.close(); });

const path = () => `/main/v1/administration/${adminId}/billing-exchange-rate`;

async function ratesOn(date: string): Promise<{ rate: string }[]> {
  return app.orm.em.fork().execute<{ rate: string }[]>('select rate::text from billing_exchange_rate where admin_id = ? and currency = ? and date = ?', [adminId, 'USD', date]);
}

test('a second rate for the same currency and date replaces the first', async (t) => {
  const first = await app.request('POST', path(), { body: { currency: 'USD', date: '2026-03-01', rate: '1.1' } });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.like(first.body, { admin_id: adminId, currency: 'USD', date: '2026-03-01', rate: '1.10' });
  const second = await app.request('POST', path(), { body: { currency: 'USD', date: '2026-03-01', rate: '1.25' } });
  t.is(second.status, 200, JSON.stringify(second.body));
  t.like(second.body, { id: first.body.id, rate: '1.25', created_at: first.body.created_at });
  t.deepEqual((await ratesOn('2026-03-01')).map((r) => r.rate), ['1.250000']);
});

test('the same rate sent ten times at once: every request answers 200, one rate stored', async (t) => {
  const answers = await Promise.all(Array.from({ length: 10 }, () => app.request('POST', path(), { body: { currency: 'USD', date: '2026-03-02', rate: '1.1' } })));
  t.deepEqual(answers.map((a) => a.status), answers.map(() => 200), JSON.stringify(answers.filter((a) => a.status !== 200).map((a) => a.body)));
  t.is(new Set(answers.map((a) => a.body.id)).size, 1, 'all answer the one rate');
  t.like(answers[0].body, { currency: 'USD', date: '2026-03-02', rate: '1.10' });
  t.deepEqual((await ratesOn('2026-03-02')).map((r) => r.rate), ['1.100000']);
});

test('a currency is an ISO 4217 currency with cents: codes of no currency (XXX, XTS, XAU, ABC) and those without cents are 400 at currency', async (t) => {
  // Found by probing (2026-11-29): any three capital letters but the currencies without cents were taken.
  const answers = [];
  for (const currency of ['XXX', 'XTS', 'XAU', 'XDR', 'ABC', 'JPY', 'KWD', 'usd']) {
    const r = await app.request('POST', path(), { body: { currency, date: '2026-03-03', rate: '1.1' } });
    answers.push([currency, r.status, r.body.param]);
  }
  t.deepEqual(answers, answers.map(([currency]) => [currency, 400, '$.currency']));
  t.is((await app.request('POST', path(), { body: { currency: 'CHF', date: '2026-03-03', rate: '0.95' } })).status, 200);
});
