// Committed migrations, in order. `npm run migration:create -- <name>` adds one here.
import { Migration20261122083254_initial } from './Migration20261122083254_initial.ts';
import { Migration20261122143857_pricing } from './Migration20261122143857_pricing.ts';
import { Migration20261123183945_customer_billing_phone } from './Migration20261123183945_customer_billing_phone.ts';
import { Migration20261124125103_billing } from './Migration20261124125103_billing.ts';
import { Migration20261124142609_cpo_side } from './Migration20261124142609_cpo_side.ts';
import { Migration20261125150122_cpo_reimbursement } from './Migration20261125150122_cpo_reimbursement.ts';
import { Migration20261125153200_roaming_setup } from './Migration20261125153200_roaming_setup.ts';
import { Migration20261125153326_app_api } from './Migration20261125153326_app_api.ts';
import { Migration20261125153607_ocpi_peer } from './Migration20261125153607_ocpi_peer.ts';
import { Migration20261125154131_roaming_cost } from './Migration20261125154131_roaming_cost.ts';
import { Migration20261125154626_ocpi_receiving } from './Migration20261125154626_ocpi_receiving.ts';
import { Migration20261125155445_ocpi_commands } from './Migration20261125155445_ocpi_commands.ts';
import { Migration20261125163731_events } from './Migration20261125163731_events.ts';
import { Migration20261125175358_ocpi_connection_fk } from './Migration20261125175358_ocpi_connection_fk.ts';
import { Migration20261125180000_billing_item_keys } from './Migration20261125180000_billing_item_keys.ts';
import { Migration20261125203147_billing_concurrent_collection } from './Migration20261125203147_billing_concurrent_collection.ts';
import { Migration20261126080000_event_data } from './Migration20261126080000_event_data.ts';
import { Migration20261126090000_review_set_operation } from './Migration20261126090000_review_set_operation.ts';
import { Migration20261126103411_billing_backfill } from './Migration20261126103411_billing_backfill.ts';
import { Migration20261126120000_billing_logo } from './Migration20261126120000_billing_logo.ts';
import { Migration20261126130000_list_filters } from './Migration20261126130000_list_filters.ts';
import { Migration20261126140000_credit_session_index } from './Migration20261126140000_credit_session_index.ts';
import { Migration20261126150000_pricing_result_scope } from './Migration20261126150000_pricing_result_scope.ts';
import { Migration20261127060000_event_commit_marker } from './Migration20261127060000_event_commit_marker.ts';
import { Migration20261127080000_event_positions } from './Migration20261127080000_event_positions.ts';
import { Migration20261127090000_event_first_row } from './Migration20261127090000_event_first_row.ts';
import { Migration20261127100000_session_admin_id_index } from './Migration20261127100000_session_admin_id_index.ts';
import { Migration20261127110000_customer_admin_id_index } from './Migration20261127110000_customer_admin_id_index.ts';
import { Migration20261127120000_event_data_check } from './Migration20261127120000_event_data_check.ts';
import { Migration20261127130000_token_admin_index } from './Migration20261127130000_token_admin_index.ts';
import { Migration20261127140000_event_commit_mark } from './Migration20261127140000_event_commit_mark.ts';
// imports-end

export const migrations: { name: string; class: new (...args: any[]) => any }[] = [
  { name: 'Migration20261122083254_initial', class: Migration20261122083254_initial },
  { name: 'Migration20261122143857_pricing', class: Migration20261122143857_pricing },
  { name: 'Migration20261123183945_customer_billing_phone', class: Migration20261123183945_customer_billing_phone },
  { name: 'Migration20261124125103_billing', class: Migration20261124125103_billing },
  { name: 'Migration20261124142609_cpo_side', class: Migration20261124142609_cpo_side },
  { name: 'Migration20261125150122_cpo_reimbursement', class: Migration20261125150122_cpo_reimbursement },
  { name: 'Migration20261125153200_roaming_setup', class: Migration20261125153200_roaming_setup },
  { name: 'Migration20261125153326_app_api', class: Migration20261125153326_app_api },
  { name: 'Migration20261125153607_ocpi_peer', class: Migration20261125153607_ocpi_peer },
  { name: 'Migration20261125154131_roaming_cost', class: Migration20261125154131_roaming_cost },
  { name: 'Migration20261125154626_ocpi_receiving', class: Migration20261125154626_ocpi_receiving },
  { name: 'Migration20261125155445_ocpi_commands', class: Migration20261125155445_ocpi_commands },
  { name: 'Migration20261125163731_events', class: Migration20261125163731_events },
  { name: 'Migration20261125175358_ocpi_connection_fk', class: Migration20261125175358_ocpi_connection_fk },
  { name: 'Migration20261125180000_billing_item_keys', class: Migration20261125180000_billing_item_keys },
  { name: 'Migration20261125203147_billing_concurrent_collection', class: Migration20261125203147_billing_concurrent_collection },
  { name: 'Migration20261126080000_event_data', class: Migration20261126080000_event_data },
  { name: 'Migration20261126090000_review_set_operation', class: Migration20261126090000_review_set_operation },
  { name: 'Migration20261126103411_billing_backfill', class: Migration20261126103411_billing_backfill },
  { name: 'Migration20261126120000_billing_logo', class: Migration20261126120000_billing_logo },
  { name: 'Migration20261126130000_list_filters', class: Migration20261126130000_list_filters },
  { name: 'Migration20261126140000_credit_session_index', class: Migration20261126140000_credit_session_index },
  { name: 'Migration20261126150000_pricing_result_scope', class: Migration20261126150000_pricing_result_scope },
  { name: 'Migration20261127060000_event_commit_marker', class: Migration20261127060000_event_commit_marker },
  { name: 'Migration20261127080000_event_positions', class: Migration20261127080000_event_positions },
  { name: 'Migration20261127090000_event_first_row', class: Migration20261127090000_event_first_row },
  { name: 'Migration20261127100000_session_admin_id_index', class: Migration20261127100000_session_admin_id_index },
  { name: 'Migration20261127110000_customer_admin_id_index', class: Migration20261127110000_customer_admin_id_index },
  { name: 'Migration20261127120000_event_data_check', class: Migration20261127120000_event_data_check },
  { name: 'Migration20261127130000_token_admin_index', class: Migration20261127130000_token_admin_index },
  { name: 'Migration20261127140000_event_commit_mark', class: Migration20261127140000_event_commit_mark },
// migrations-end
];
