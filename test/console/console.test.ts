// The built console end to end: headless Chromium (@sparticuz/chromium, driven by playwright-core)
// against the real app on the demo instance. One browser for the file, pages reused; screenshots
// of the main pages go to test/.artifacts/console/.
import { mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import chromium from '@sparticuz/chromium';
import test from 'ava';
import { chromium as playwright, type Browser, type Page } from 'playwright-core';
import { ensureConsoleBuilt } from '../../scripts/console-build.ts';
import { ensureDemoInstance } from '../../src/demo/demo-instance.ts';
import { processSessionBatch } from '../../src/session-processing/process-sessions.service.ts';
import { startTestApp, type Auth, type TestApp } from '../helpers/app.ts';
import { registerSecret } from '../helpers/secret-scan.ts';
import { data } from '../schema/graphql.ts';

const ARTIFACTS = fileURLToPath(new URL('../.artifacts/console/', import.meta.url));

let app: TestApp;
let browser: Browser;
let page: Page;
let scoped: Auth;

test.before(async (t) => {
  t.timeout(240_000, 'build the console when stale, start the app, seed the demo instance, start Chromium');
  mkdirSync(ARTIFACTS, { recursive: true });
  let at = Date.now();
  const lap = (what: string) => { t.log(`${what}: ${((Date.now() - at) / 1000).toFixed(1)} s`); at = Date.now(); };
  t.true(ensureConsoleBuilt(() => {}), 'the console is built');
  lap('console build (when stale)');
  const [started, executablePath] = await Promise.all([startTestApp(), chromium.executablePath()]);
  app = started;
  lap('app and Chromium unpacked');
  await ensureDemoInstance(app.orm, () => {});
  await processSessionBatch(app.orm, 100);
  lap('demo instance');
  scoped = await app.credential({ role: 'admin', adminIds: ['be-main'] });
  // --single-process crashed the second sign-in on this machine.
  browser = await playwright.launch({ executablePath, headless: true, args: chromium.args.filter((arg) => arg !== '--single-process') });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  page = await context.newPage();
});

test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

// A test that failed with a dialog open leaves the next one a page it can use.
test.afterEach.always(async () => {
  if (page && await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
});

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

async function signIn(auth: Auth): Promise<void> {
  await page.getByLabel('Public id').fill(auth.publicId);
  await page.getByLabel('Secret').fill(auth.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByTestId('public-id').filter({ hasText: auth.publicId }).waitFor();
}

async function nav(label: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: label, exact: true }).click();
}

/** Clicks an action and the button of the confirmation that names it. */
async function act(label: string): Promise<void> {
  await page.getByRole('button', { name: label, exact: true }).first().click();
  await page.getByRole('dialog').getByRole('button', { name: label, exact: true }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
}

test.serial('sign in: a wrong secret shows the error; the right one opens the overview', async (t) => {
  await page.goto(`${app.url}/console/`);
  await page.getByLabel('Public id').fill(app.admin.publicId);
  await page.getByLabel('Secret').fill('not-the-secret');
  await page.getByRole('button', { name: 'Sign in' }).click();
  t.regex(await page.getByRole('alert').innerText(), /Sign-in failed[\s\S]*(credential|unauthori)/i);
  await page.getByLabel('Secret').fill(app.admin.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Demo Charging Group' }).waitFor();
  t.is(await page.evaluate(() => Object.keys(sessionStorage).length > 0 && Object.keys(localStorage).length === 0), true, 'the credential is in sessionStorage only');
  await page.getByRole('link', { name: 'unknown_token' }).waitFor();
  await shot('overview');
  await nav('About');
  t.is(await page.getByTestId('product-version').innerText(), JSON.parse(readFileSync('package.json', 'utf8')).version);
});

test.serial('find a customer; Shift+Y shows its REST id; an edit shows errors beside their fields', async (t) => {
  await nav('Customers');
  await page.getByRole('link', { name: 'Groen Logistiek B.V.' }).waitFor();
  await page.getByLabel('Find a customer by external reference or id').fill('CUST-1001');
  await page.getByRole('button', { name: 'Find customer' }).click();
  await page.getByRole('heading', { level: 1, name: /Jan de Vries/ }).waitFor();
  t.true(await page.getByText('Oudegracht 12').isVisible());
  t.true(await page.getByText('NL91ABNA0417164300').isVisible());
  await page.getByRole('link', { name: /^NL-VOL-C/ }).first().waitFor();
  await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
  await shot('customer');
  const { customer } = await data(app, '{ customer(id: "ext_ref.CUST-1001") { databaseId } }');
  await page.keyboard.press('Shift+Y');
  const dialog = page.getByRole('dialog');
  t.is(await dialog.getByLabel('The id REST paths take').inputValue(), customer.databaseId);
  await dialog.getByRole('button', { name: 'Copy id' }).click();
  // The clipboard answers asynchronously; without its permission the id is selected instead.
  await dialog.getByRole('status').filter({ hasText: /^(Copied|Selected: press Ctrl\+C to copy)$/ }).waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });

  // Edit it: the errors appear beside the fields they name, then a valid change is saved.
  await page.getByRole('button', { name: 'Edit customer' }).click();
  await dialog.getByLabel('Billing e-mail').fill('not-an-email');
  await dialog.getByLabel('Country (ISO 3166-1 alpha-2)').fill('XX');
  await dialog.getByRole('button', { name: 'Save customer' }).click();
  await dialog.locator('#cf-billingEmail-error').waitFor();
  t.is(await dialog.locator('#cf-billingEmail-error').innerText(), 'billingEmail must be an email address');
  t.regex(await dialog.locator('#cf-country-error').innerText(), /ISO 3166-1 alpha-2/);
  await dialog.getByLabel('Country (ISO 3166-1 alpha-2)').fill('NL');
  await dialog.getByLabel('Billing e-mail').fill('jan.de.vries@example.nl');
  await dialog.getByRole('button', { name: 'Save customer' }).click();
  await dialog.waitFor({ state: 'detached' });
  await page.getByText('jan.de.vries@example.nl').waitFor();
});

test.serial('a session: its price explained line by line, and a reprice gives version 2', async (t) => {
  await nav('Charge sessions');
  await page.getByLabel('Status').selectOption('PRICED');
  await page.getByRole('link', { name: 'DEMO-M-2', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: /Session DEMO-M-2/ }).waitFor();
  const explanation = await page.getByRole('list', { name: 'Price explanation' }).innerText();
  t.regex(explanation, /rule #2 "Blocking fee after 3 hours" matched first/);
  t.regex(explanation, /total 26\.39 excl\. VAT/);
  t.regex(await page.locator('table.pricing-lines').innerText(), /Charging time[\s\S]*12\.00/);
  await shot('session');
  await act('Reprice');
  await page.getByRole('tab', { name: 'Version 2' }).waitFor({ timeout: 30_000 });
  t.true(await page.getByRole('tab', { name: 'Version 2' }).getAttribute('aria-selected') === 'true');
});

test.serial('reprocess a drop-out: retry resolves the case', async (t) => {
  await nav('Drop-outs');
  const row = page.getByRole('row').filter({ hasText: 'unknown_token' });
  await row.waitFor();
  await shot('dropouts');
  await row.getByRole('button', { name: 'Retry' }).click();
  t.regex(await page.getByRole('dialog').innerText(), /go through the pipeline again/);
  await page.getByRole('dialog').getByRole('button', { name: 'Retry' }).click();
  await row.getByText('retry', { exact: true }).waitFor();
  t.is(await row.getByRole('button', { name: 'Retry' }).count(), 0, 'a resolved case offers no actions');
  const { dropoutCases } = await data(app, '{ dropoutCases(first: 5, status: RESOLVED) { edges { node { reason resolution } } } }');
  t.deepEqual(dropoutCases.edges.map((e: any) => e.node), [{ reason: 'unknown_token', resolution: 'RETRY' }]);
});

test.serial('the top bar finds customers by name; EVSEs, arrangements and the delivery log are lists; session filters live in the URL', async (t) => {
  await page.locator('#global-search').fill('de vries');
  await page.locator('#global-search').press('Enter');
  await page.getByRole('link', { name: /^Jan de Vries \(CUST-1001/ }).click();
  await page.getByRole('heading', { level: 1, name: /Jan de Vries/ }).waitFor();

  await nav('EVSEs & locations');
  await page.getByRole('cell', { name: 'EVSE-UTR-01' }).waitFor();
  await page.goto(`${app.url}/console/evses?location=LOC-UTR-01`);
  await page.getByRole('cell', { name: 'EVSE-UTR-01' }).waitFor();
  t.deepEqual(await page.getByRole('table', { name: 'EVSEs' }).locator('tbody tr td:first-child').allInnerTexts(), ['EVSE-UTR-01']);
  await shot('evses');

  await nav('Reimbursement');
  await page.getByRole('heading', { name: 'Reimbursement arrangements' }).waitFor();
  t.is(await page.getByText('Not in the GraphQL schema yet').count(), 0);

  const { chargeSessions } = await data(app, '{ chargeSessions(first: 1, status: PRICED, cpo: false) { edges { node { sessionId tokenEvcoId startDateTime } } } }');
  const session = chargeSessions.edges[0].node;
  const day = session.startDateTime.slice(0, 10);
  await page.goto(`${app.url}/console/sessions?token=${encodeURIComponent(session.tokenEvcoId)}&from=${day}&until=${day}`);
  await page.getByRole('link', { name: session.sessionId, exact: true }).waitFor();
  t.is(await page.getByLabel('Token').inputValue(), session.tokenEvcoId);
  t.is(await page.getByLabel('Started from').inputValue(), day);
  await page.goto(`${app.url}/console/sessions?token=${encodeURIComponent(session.tokenEvcoId)}&from=2000-01-01&until=2000-01-02`);
  await page.getByText('No charge sessions match.').waitFor();

  const hook = await app.request('POST', '/main/v1/webhook-subscription', { body: { url: 'http://127.0.0.1:9/console-hook', kinds: ['customer'], secret: 'a-secret-of-enough-length-1234' } });
  t.is(hook.status, 200);
  await nav('Webhooks');
  await page.getByRole('row').filter({ hasText: 'console-hook' }).getByRole('link', { name: 'Delivery log' }).click();
  await page.getByText(/Deliveries to/).waitFor();
  t.true(page.url().includes(`deliveries=${hook.body.id}`));
  await shot('webhook-delivery-log');
});

test.serial('billing: close, approve and finalize a box, then download its PDF', async (t) => {
  const { billingBoxes } = await data(app, '{ billingBoxes(first: 20, state: OPEN) { edges { node { databaseId partyExternalReference } } } }');
  const box = billingBoxes.edges.map((e: any) => e.node).find((b: any) => b.partyExternalReference === 'CUST-1001');
  await nav('Billing');
  await page.getByRole('link', { name: /^VOL-\d{4}-\d{2}$/ }).last().click();
  await page.getByRole('heading', { level: 1, name: /Review set/ }).waitFor();
  await page.getByRole('link', { name: 'Jan de Vries' }).click();
  await page.getByRole('heading', { level: 1, name: /Jan de Vries/ }).waitFor();
  // Waited for rather than read at once: it failed once in a full run (2026-11-28), not reproduced alone.
  await page.waitForURL((url) => url.pathname.endsWith(`/console/billing/boxes/${box.databaseId}`), { timeout: 10_000 });
  t.true(page.url().endsWith(`/console/billing/boxes/${box.databaseId}`));
  await act('Close');
  await act('Approve');
  await page.getByRole('button', { name: 'Finalize' }).waitFor({ timeout: 30_000 });
  await act('Finalize');
  await page.getByRole('heading', { level: 1, name: /Box VOL-\d{4}-\d+/ }).waitFor();
  t.regex(await page.getByRole('heading', { level: 1 }).innerText(), /finalized/);
  await page.getByRole('button', { name: 'Download UBL' }).waitFor();
  // Only a PDF opens in a tab (a blob there is a page of the console's origin); a UBL is downloaded.
  t.is(await page.getByRole('button', { name: 'Open PDF' }).count(), 1);
  t.is(await page.getByRole('button', { name: 'Open UBL' }).count(), 0);
  await shot('billing-box');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PDF' }).click()]);
  const pdf = readFileSync((await download.path())!);
  t.is(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.regex(download.suggestedFilename(), /^VOL-\d{4}-\d+\.pdf$/);
});

test.serial('an error shows its message and field', async (t) => {
  await page.getByRole('button', { name: 'Reopen' }).count().then((n) => t.is(n, 0, 'a finalized box offers no reopen'));
  await page.goto(`${app.url}/console/dropouts?reason=no_such_reason`);
  const alert = page.getByRole('alert');
  await alert.waitFor();
  t.regex(await alert.innerText(), /reason must be one of[\s\S]*field \$\.reason[\s\S]*validation_failed/);
});

test.serial('create and revoke a credential: the secret is shown once with a copy button; the revoked one can no longer sign in', async (t) => {
  await nav('API credentials');
  await page.getByRole('heading', { level: 1, name: 'API credentials' }).waitFor();
  await page.getByRole('button', { name: 'New credential' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Public id').fill('console-cred');
  await form.getByLabel('Role').selectOption('READONLY');
  await form.getByRole('button', { name: 'Create credential' }).click();
  const shown = page.getByRole('dialog', { name: 'Credential console-cred created' });
  await shown.waitFor();
  const secret = await shown.getByLabel('Secret').inputValue();
  registerSecret(secret);
  t.true(secret.length >= 24);
  await shown.getByRole('button', { name: 'Copy secret' }).click();
  await shown.getByRole('status').filter({ hasText: /^(Copied|Selected: press Ctrl\+C to copy)$/ }).waitFor();
  await shot('credential-created');
  await shown.getByRole('button', { name: 'Done' }).click();
  await shown.waitFor({ state: 'detached' });
  const auth = { publicId: 'console-cred', secret };
  t.is((await app.request('GET', '/main/v1/customer', { auth })).status, 200, 'the new credential works');
  t.false((await page.content()).includes(secret), 'the secret is not on the page once its dialog is closed');

  const row = page.locator('tr[data-credential="console-cred"]');
  t.is(await row.locator('td').nth(1).innerText(), 'readonly');
  await row.getByRole('button', { name: 'Revoke', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke', exact: true }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await row.getByText('revoked').waitFor();
  await shot('credentials');
  t.is((await app.request('GET', '/main/v1/customer', { auth })).status, 401, 'revoked: refused at once');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('status').filter({ hasText: 'Signed out.' }).waitFor();
  await page.getByLabel('Public id').fill(auth.publicId);
  await page.getByLabel('Secret').fill(auth.secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  t.regex(await page.getByRole('alert').innerText(), /Sign-in failed/i);
  await page.getByLabel('Secret').fill('');
  await signIn(app.admin);
});

test.serial('a credential limited to one administration sees only it; phone width', async (t) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('status').filter({ hasText: 'Signed out.' }).waitFor();
  t.is(await page.evaluate(() => Object.keys(sessionStorage).length), 0);
  await signIn(scoped);
  t.is(await page.getByLabel('Administration').count(), 0, 'no administration filter for one administration');
  t.true(await page.getByText('Voltera Belgium', { exact: true }).first().isVisible());
  await nav('Customers');
  await page.getByRole('link', { name: 'Lotte Peeters' }).waitFor();
  const names = await page.locator('tbody tr td:first-child').allInnerTexts();
  t.deepEqual(names.sort(), ['Antwerp Taxi NV', 'Lotte Peeters']);
  await page.getByLabel('Find a customer by external reference or id').fill('CUST-1001');
  await page.getByRole('button', { name: 'Find customer' }).click();
  await page.getByRole('heading', { level: 1, name: 'Customer not found' }).waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'Menu' }).click();
  await nav('Customers');
  await page.getByRole('link', { name: 'Lotte Peeters' }).waitFor();
  t.true(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling at phone width');
  await shot('customers-phone');
});
