// A webhook's connection resolves its host by publicLookup: a name of a non-public address fails it.
import test from 'ava';
import type { LookupAddress } from 'node:dns';
import { isNonPublicAddress, publicLookup } from '../../../src/webhooks/webhook-target.ts';

const lookup = (hostname: string) => new Promise<{ error: (Error & { code?: string }) | null; addresses: LookupAddress[] }>((resolve) => {
  publicLookup(hostname, { all: true }, (error, addresses) => resolve({ error, addresses: addresses as LookupAddress[] }));
});

test('a name resolving to a loopback address fails the connection, unless private targets are allowed', async (t) => {
  const saved = process.env.SVC_WEBHOOK_PRIVATE_TARGETS;
  t.teardown(() => { process.env.SVC_WEBHOOK_PRIVATE_TARGETS = saved; });
  process.env.SVC_WEBHOOK_PRIVATE_TARGETS = '';
  const refused = await lookup('localhost');
  t.is(refused.error?.code, 'ENOTPUBLIC');
  t.regex(refused.error!.message, /localhost resolves to .*, not a public address/);
  process.env.SVC_WEBHOOK_PRIVATE_TARGETS = 'allow';
  const allowed = await lookup('localhost');
  t.is(allowed.error, null);
  t.true(allowed.addresses.length > 0);
});

test('addresses: private, loopback, link-local, mapped and special ranges are not public; others are', (t) => {
  for (const address of ['127.0.0.1', '10.0.0.1', '172.16.5.4', '192.168.0.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd12::1',
    '::ffff:127.0.0.1', '::ffff:10.0.0.1', '224.0.0.1', 'not an address',
    // Found by probing: forms that carry an IPv4 address or a network of their own passed.
    '::7f00:1', '::ffff:0:7f00:1', '2002:7f00:1::1', '64:ff9b:1::a00:1', 'fec0::1', '2001:0:4136:e378::1']) t.true(isNonPublicAddress(address), address);
  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '172.32.0.1']) t.false(isNonPublicAddress(address), address);
});
