import { rmSync } from 'node:fs';
import test, { type ExecutionContext } from 'ava';
import { migrations } from '../../../src/migrations/index.ts';
import { exited, runCli, startServiceProcess, tempDataDir } from '../../helpers/process.ts';
import { pdfPages } from '../../helpers/pdf-text.ts';

const basic = (user: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}` });

/**
 * The start-up phases as JSON log lines (stdout is not a terminal), in order: the database created
 * and started, every migration (n of m), the worker, listening.
 */
function startPhasesLogged(t: ExecutionContext, raw: string): void {
  const lines = raw.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { level: string; time: string; msg: string });
  for (const line of lines) t.regex(line.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const messages = lines.map((line) => line.msg);
  const at = (pattern: RegExp) => {
    const index = messages.findIndex((message) => pattern.test(message));
    t.not(index, -1, `${pattern} in ${messages.join('\n')}`);
    return index;
  };
  const order = [
    at(/^database: creating the embedded PostgreSQL data directory /),
    at(/^database: starting the embedded PostgreSQL \(.*, port \d+\)$/),
    at(new RegExp(`^migrations: 1 of ${migrations.length} applied \\(`)),
    at(new RegExp(`^migrations: ${migrations.length} of ${migrations.length} applied \\(`)),
    at(new RegExp(`^migrations: ${migrations.length} applied, ${migrations.length} in all$`)),
    at(/^worker: started \(session processing, billing, webhook deliveries\)$/),
    at(/^Service listening on http:\/\/localhost:\d+$/),
  ];
  t.deepEqual(order, [...order].sort((a, b) => a - b), 'in this order');
}

test('npm start on an empty data dir: embedded PostgreSQL, demo instance, survives SIGKILL, CLI joins it; a changed demo secret is not printed', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { SVC_DATA_DIR: dataDir, SVC_BOOTSTRAP_CREDENTIAL: 'boot:boot-secret-123456' };

  const first = await startServiceProcess(env);
  const version = await (await fetch(`${first.url}/main/version`)).json();
  t.is(version.version, '4.9.0');
  startPhasesLogged(t, first.rawOutput());
  t.regex(first.output(), /^demo credential: demo:demo-secret-change-me \(/m);
  t.regex(first.output(), /^bootstrap credential boot: created \(admin, every administration\)$/m);
  const admins = await (await fetch(`${first.url}/main/v1/administration`, { headers: basic('boot', 'boot-secret-123456') })).json();
  t.deepEqual(admins.items.map((a: { id: string }) => a.id).sort(), ['be-main', 'nl-main']);
  const plans = await (await fetch(`${first.url}/main/v1/msp-token-subscription-plan`, { headers: basic('boot', 'boot-secret-123456') })).json();
  const basicPlan = plans.items.find((plan: { external_reference: string }) => plan.external_reference === 'PLAN-NL-BASIC');
  const cost = await (await fetch(`${first.url}/main/v1/msp-charge-cost-calculation?plan_id=${basicPlan.id}&start_date_time=2026-06-01T12:00:00Z`
    + '&end_date_time=2026-06-01T13:00:00Z&energy_kwh=10&country=NL&time_zone=Europe/Amsterdam', { headers: basic('boot', 'boot-secret-123456') })).json();
  t.is(cost.total_excl_vat, '4.85', 'the demo plan prices 10 kWh at 0.45 plus a 0.35 session fee');
  t.is(cost.total_incl_vat, '5.87', JSON.stringify(cost));
  let sessions: { status: string; session_id: string }[] = [];
  for (let i = 0; i < 200 && !(sessions.length === 11 && sessions.every((s) => s.status !== 'received')); i++) {
    sessions = (await (await fetch(`${first.url}/main/v1/msp-charge-session`, { headers: basic('boot', 'boot-secret-123456') })).json()).items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  // Last month's sessions of Jan de Vries's card, priced and billed before the month was finalized; then this month's.
  const lastMonth = sessions.filter((s) => s.session_id.startsWith('DEMO-M-'));
  t.is(lastMonth.length, 7);
  t.true(lastMonth.every((s) => s.status === 'priced'));
  t.deepEqual(sessions.filter((s) => !s.session_id.startsWith('DEMO-M-')).map((s) => [s.session_id, s.status]),
    [['DEMO-CPO-1', 'processed'], ['DEMO-1', 'priced'], ['DEMO-2', 'priced'], ['DEMO-3', 'dropout']]);
  // Its finalized invoice is Dutch, names its lines and lists the sessions in its annex.
  const finalized = (await (await fetch(`${first.url}/main/v1/billing-box?party_external_reference=CUST-1001&state=finalized`, { headers: basic('boot', 'boot-secret-123456') })).json()).items;
  t.is(finalized.length, 1);
  const pdf = Buffer.from(await (await fetch(`${first.url}/main/v1/billing-box/${finalized[0].id}/document`, { headers: basic('boot', 'boot-secret-123456') })).arrayBuffer());
  const text = (await pdfPages(pdf)).join('\n');
  for (const s of ['Factuur', 'Laadsessies (7 sessies', 'Pasbijdrage – Voltera Basic', 'Vervangende laadpas', 'Bijlage: laadsessies', 'Betalingskenmerk', 'Pagina 1 van']) {
    t.true(text.includes(s), `${s} in\n${text}`);
  }
  // A driver of the roaming partner at our charger: processed and billed to the partner at the reported amount.
  let roaming: { status: string; roaming_partner_id: string | null; calculated_roaming_amount_excl_vat: string | null } | undefined;
  for (let i = 0; i < 200 && roaming?.status !== 'processed'; i++) {
    roaming = (await (await fetch(`${first.url}/main/v1/cpo-charge-session`, { headers: basic('boot', 'boot-secret-123456') })).json()).items[0];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  t.like(roaming, { status: 'processed', calculated_roaming_amount_excl_vat: '7.10' });
  const partnerBoxes = (await (await fetch(`${first.url}/main/v1/billing-box?party_external_reference=RP-DEEXA`, { headers: basic('boot', 'boot-secret-123456') })).json()).items;
  t.deepEqual(partnerBoxes.map((b: { party_id: string; admin_id: string; state: string }) => [b.party_id, b.admin_id, b.state]),
    [[roaming!.roaming_partner_id, 'nl-main', 'open']]);

  const cli = await runCli(['credential', 'create', '--public-id', 'ops-be', '--secret', 'ops-secret-123456', '--admin', 'be-main', '--role', 'readonly'], { SVC_DATA_DIR: dataDir });
  t.is(cli.code, 0, cli.stderr);
  const scoped = await (await fetch(`${first.url}/main/v1/administration`, { headers: basic('ops-be', 'ops-secret-123456') })).json();
  t.deepEqual(scoped.items.map((a: { id: string }) => a.id), ['be-main']);

  // The demo credential given another secret: the next start does not print a secret for it. The
  // bootstrap credential revoked: the next start, with SVC_BOOTSTRAP_CREDENTIAL unchanged, leaves it so.
  const [changed, revoked] = await Promise.all([
    runCli(['credential', 'create', '--public-id', 'demo', '--secret', 'a-secret-of-our-own'], { SVC_DATA_DIR: dataDir }),
    runCli(['credential', 'revoke', '--public-id', 'boot'], { SVC_DATA_DIR: dataDir }),
  ]);
  t.is(changed.code, 0, changed.stderr);
  t.is(revoked.code, 0, revoked.stderr);

  first.child.kill('SIGKILL');
  await exited(first.child);
  const second = await startServiceProcess(env);
  t.teardown(async () => { second.child.kill('SIGINT'); await exited(second.child); });
  t.regex(second.output(), /^demo credential: demo, its secret was changed \(no longer the published one\) \(start with SVC_DEMO=0/m);
  t.false(second.output().includes('demo-secret-change-me'), second.output());
  t.false(second.output().includes('a-secret-of-our-own'), second.output());
  t.is((await fetch(`${second.url}/main/v1/administration`, { headers: basic('demo', 'demo-secret-change-me') })).status, 401);
  t.regex(second.output(), /^bootstrap credential boot: revoked, left so \(SVC_BOOTSTRAP_CREDENTIAL does not restore it\)$/m);
  t.is((await fetch(`${second.url}/main/v1/administration`, { headers: basic('boot', 'boot-secret-123456') })).status, 401);
  const again = await fetch(`${second.url}/main/v1/customer?page_size=1`, { headers: basic('ops-be', 'ops-secret-123456') });
  t.is(again.status, 200);
  t.is((await again.json()).items[0].admin_id, 'be-main');
});

test('SVC_DEMO=0 starts without demo data; the CLI creates administrations', async (t) => {
  const dataDir = tempDataDir();
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const env = { SVC_DATA_DIR: dataDir, SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: 'boot:boot-secret-123456' };
  const made = await runCli(['administration', 'create', '--id', 'de-main', '--name', 'Germany', '--currency', 'EUR', '--country', 'DE'], env);
  t.is(made.code, 0, made.stderr);
  const duplicate = await runCli(['administration', 'create', '--id', 'de-main', '--name', 'Germany', '--currency', 'EUR', '--country', 'DE'], env);
  t.is(duplicate.code, 1);
  t.regex(duplicate.stderr, /exists already/);
  const service = await startServiceProcess(env);
  t.teardown(async () => { service.child.kill('SIGINT'); await exited(service.child); });
  t.notRegex(service.output(), /demo credential/);
  const admins = await (await fetch(`${service.url}/main/v1/administration`, { headers: basic('boot', 'boot-secret-123456') })).json();
  t.deepEqual(admins.items.map((a: { id: string }) => a.id), ['de-main']);
  // The demo on a database with administrations of its own: neither demo data nor the published credential.
  const demo = await runCli(['demo'], env);
  t.is(demo.code, 0, demo.stderr);
  t.regex(demo.stdout, /^demo credential: none: the database held administrations of its own, so no demo instance was created /m);
  t.is((await fetch(`${service.url}/main/v1/administration`, { headers: basic('demo', 'demo-secret-change-me') })).status, 401);

  // A second npm start on another port joins the same embedded database, with a second worker.
  const second = await startServiceProcess(env);
  t.not(second.port, service.port);
  t.regex(second.output(), new RegExp(`^database: joining the embedded PostgreSQL of the service running on .* \\(pid ${service.child.pid}, port \\d+\\)$`, 'm'));
  t.regex(second.output(), /^bootstrap credential boot: exists, left as it is$/m);
  t.regex(second.output(), new RegExp(`^worker: started beside the worker of the service \\(pid ${service.child.pid}\\) that runs this database`, 'm'));
  const seen = await (await fetch(`${second.url}/main/v1/administration`, { headers: basic('boot', 'boot-secret-123456') })).json();
  t.deepEqual(seen.items.map((a: { id: string }) => a.id), ['de-main']);
  t.is((await fetch(`${second.url}/main/health/ready`)).status, 200);
  second.child.kill('SIGINT');
  t.is(await exited(second.child), 0);
  t.is((await fetch(`${service.url}/main/health/ready`)).status, 200, 'the first one keeps its database');
});
