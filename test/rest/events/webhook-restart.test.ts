// Killing the service between commit and delivery: the events and their delivery job are in the
// database, so a restarted service delivers them, in order (a real service process, SIGKILL).
import test from 'ava';
import { freePort } from '../../../src/platform/embedded-postgres.ts';
import { freshDatabaseUrl } from '../../helpers/db.ts';
import { startServiceProcess, exited } from '../../helpers/process.ts';
import { startReceiver, until } from '../../helpers/webhook-receiver.ts';

test('events committed before a crash are delivered after the restart, in order', async (t) => {
  const env = {
    DATABASE_URL: await freshDatabaseUrl(), SVC_DEMO: '0', SVC_BOOTSTRAP_CREDENTIAL: 'events:secret-secret-secret',
    SVC_WEBHOOK_RETRY_SECONDS: '0.2', SVC_WEBHOOK_MAX_RETRY_SECONDS: '1', SVC_SECRET_KEY: 'restart-test-key',
  };
  const port = await freePort();
  const auth = `Basic ${Buffer.from('events:secret-secret-secret').toString('base64')}`;
  const first = await startServiceProcess(env);
  const post = async (url: string, path: string, body: unknown) => {
    const response = await fetch(`${url}/main/v1${path}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    t.is(response.status, 200);
    return response.json() as Promise<Record<string, any>>;
  };
  // Nobody listens yet: every delivery attempt fails until the receiver starts.
  const subscription = await post(first.url, '/webhook-subscription', {
    url: `http://127.0.0.1:${port}/hook`, kinds: ['webhook_subscription'], secret: 'whsec-0123456789abcdef',
  });
  await post(first.url, `/webhook-subscription/${subscription.id}`, { external_reference: `restart-${port}` });
  first.child.kill('SIGKILL');
  await exited(first.child);

  const receiver = await startReceiver(port);
  const second = await startServiceProcess(env);
  try {
    await until(() => receiver.on('/hook').length >= 2, () => `both events after the restart: ${JSON.stringify(receiver.deliveries.map((d) => d.body))}\n${first.output()}\n${second.output()}`, 30_000);
    const got = receiver.on('/hook').map((d) => [d.body.kind, d.body.modification_kind, d.body.data.id]);
    t.deepEqual(got.slice(0, 2), [['webhook_subscription', 'create', subscription.id], ['webhook_subscription', 'update', subscription.id]]);
  } finally {
    second.child.kill('SIGKILL');
    await exited(second.child);
    await receiver.close();
  }
});
