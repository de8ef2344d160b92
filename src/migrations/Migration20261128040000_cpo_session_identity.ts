import { Migration } from '@mikro-orm/migrations';

// A CPO session's identity is its EVSE's uid as sent (any casing) and its session id
// (src/sessions/ingest-session.service.ts identityKeyOf). The key left `*`, `-` and white space out
// of the uid, as for a party id, and did not escape a colon: the sessions of two EVSEs, `EVX-1` and
// `EVX1` (or uid `A:B` with session `C` and uid `A` with session `B:C`), were one session, the
// second sender's replacing the first's. The keys of the CPO sessions stored are written anew; the
// new key of each is distinct (it keeps more of the uid), so the unique index holds.
const KEY = `'cpo_charge_session:' || replace(replace(evse_uid, '%', '%25'), ':', '%3A') || ':' || session_id`;

export class Migration20261128040000_cpo_session_identity extends Migration {

  override name = 'Migration20261128040000_cpo_session_identity';

  override up(): void | Promise<void> {
    this.addSql(`update "msp_charge_session" set "identity_key" = ${KEY} where "source" = 'cpo_charge_session' and "identity_key" <> ${KEY};`);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "msp_charge_session" set "identity_key" = 'cpo_charge_session:' || regexp_replace(evse_uid, '[*\\s-]', '', 'g') || ':' || session_id
      where "source" = 'cpo_charge_session';`);
  }

}
