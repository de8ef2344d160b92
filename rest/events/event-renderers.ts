// The `data` of webhook deliveries: for each event kind, what its GET answers (the same loader and
// serializer as the route). Imported by the composition roots that deliver (the worker thread).
import { getBox } from '../../src/billing/billing-box.queries.ts';
import { getSessionReimbursement } from '../../src/cpo/session-reimbursement.queries.ts';
import { getEvse } from '../../src/cpo/save-evse.service.ts';
import { getEndUser } from '../../src/end-users/save-end-user.service.ts';
import { registerEventRenderer } from '../../src/events/event-renderers.ts';
import { getToken } from '../../src/msp/save-token.service.ts';
import { getTokenLink } from '../../src/msp/save-token-link.service.ts';
import { getTokenSubscription } from '../../src/msp/token-subscription.queries.ts';
import { Customer } from '../../src/parties/customer.entity.ts';
import { getMandate } from '../../src/parties/direct-debit-mandate.queries.ts';
import { getBillingAddress } from '../../src/parties/save-billing-address.service.ts';
import { instanceOverview } from '../../src/parties/instance-overview.service.ts';
import { getByRef, parseRef } from '../../src/platform/resource-ref.ts';
import { isUuid } from '../../src/platform/ids.ts';
import { PricingResult } from '../../src/sessions/pricing-result.entity.ts';
import { getVisibleDropoutCase, getVisibleSession } from '../../src/sessions/reprocess.service.ts';
import { serializeBox } from '../billing/billing-box-shape.ts';
import { serializeSessionReimbursement } from '../cpo/session-reimbursement.routes.ts';
import { serializeEvse } from '../cpo/evse.routes.ts';
import { serializeEndUser } from '../end-users/end-user.routes.ts';
import { tokenOutput } from '../msp/token.routes.ts';
import { serializeTokenLink } from '../msp/token-link.routes.ts';
import { present as presentTokenSubscription } from '../msp/token-subscription.routes.ts';
import { serializeBillingAddress } from '../parties/billing-address.routes.ts';
import { serializeCustomer } from '../parties/customer.routes.ts';
import { serializeInstance } from '../parties/instance.routes.ts';
import { serializeMandate } from '../parties/direct-debit-mandate.routes.ts';
import {
  serializeChargeSession, serializeCpoChargeSession, serializeCpoDropoutCase, serializeDropoutCase, serializePricingResult,
} from '../sessions/session-serializers.ts';

registerEventRenderer('customer', async (em, id) => serializeCustomer(await getByRef(em, Customer, parseRef(id, true), 'customer')));
registerEventRenderer('billing_address', async (em, id) => serializeBillingAddress(await getBillingAddress(em, parseRef(id, true))));
registerEventRenderer('direct_debit_mandate', async (em, id) => serializeMandate(await getMandate(em, parseRef(id, true))));
registerEventRenderer('msp_token', async (em, id) => tokenOutput(em, await getToken(em, id)));
registerEventRenderer('msp_token_subscription', async (em, id) => presentTokenSubscription(em, await getTokenSubscription(em, id)));
registerEventRenderer('msp_token_link', async (em, id) => serializeTokenLink(await getTokenLink(em, id)));
registerEventRenderer('msp_charge_session', async (em, id) => serializeChargeSession(await getVisibleSession(em, id)));
registerEventRenderer('cpo_charge_session', async (em, id) => serializeCpoChargeSession(await getVisibleSession(em, id)));
registerEventRenderer('msp_charge_session_priced', async (em, id) => {
  const result = isUuid(id) ? await em.findOne(PricingResult, { id }, { populate: ['session'] }) : null;
  return result ? serializePricingResult(result) : null;
});
registerEventRenderer('msp_dropout_case', async (em, id) => serializeDropoutCase(await getVisibleDropoutCase(em, id, 'msp')));
registerEventRenderer('cpo_dropout_case', async (em, id) => serializeCpoDropoutCase(await getVisibleDropoutCase(em, id, 'cpo')));
registerEventRenderer('cpo_evse', async (em, id) => serializeEvse(await getEvse(em, id)));
registerEventRenderer('cpo_charge_session_reimbursement', async (em, id) => serializeSessionReimbursement(await getSessionReimbursement(em, id)));
registerEventRenderer('billing_box', async (em, id) => serializeBox(await getBox(em, id)));
registerEventRenderer('instance', async (em) => serializeInstance(await instanceOverview(em)));
registerEventRenderer('end_user', async (em, id) => serializeEndUser(await getEndUser(em, id)));
