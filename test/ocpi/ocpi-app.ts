// A test app with a test CPO registered on a roaming connection (we register with its token A).
import type { TestApp } from '../helpers/app.ts';
import { createRoamingConnection } from '../helpers/roaming-factories.ts';
import { startCpoPeer, type CpoParty, type CpoPeer } from './cpo-peer.ts';

/** `parties`: the CPO's credentials roles (default NL*CPO; a hub's connection relays several). */
export async function registeredCpo(app: TestApp, options: { parties?: CpoParty[] } = {}): Promise<{ cpo: CpoPeer; connectionId: string }> {
  const cpo = await startCpoPeer(options);
  const connectionId = (await createRoamingConnection(app, { kind: 'provider_facilitated' })).id as string;
  const r = await app.request('POST', `/main/v1/roaming-connection/${connectionId}/ocpi/register`, { body: { versions_url: cpo.versionsUrl, token: cpo.tokenForService } });
  if (r.status !== 200) throw new Error(`register: ${JSON.stringify(r.body)}`);
  // The CPO now calls us with token B (kept by the test CPO when we POSTed our credentials).
  return { cpo, connectionId };
}

/** The MSP charge session a CDR became (its session_id is the CDR id). */
export async function sessionOfCdr(app: TestApp, cdrId: string) {
  for (let after: string | undefined; ;) {
    const r = await app.request('GET', `/main/v1/msp-charge-session?page_size=1000${after ? `&after=${after}` : ''}`);
    const found = r.body.items.find((s: { session_id: string }) => s.session_id === cdrId);
    if (found) return found;
    if (!r.body.link_next) return undefined;
    after = r.body.items.at(-1).id;
  }
}
