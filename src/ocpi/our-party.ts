// What this eMSP publishes about itself: its versions, the 2.2.1 endpoints it serves and its
// credentials object (each checked as an outgoing message where it is sent).
import { ocpiSettings, ourUrls } from './ocpi-settings.ts';
import type { OcpiCredentials } from './schemas/credentials.ts';
import type { OcpiEndpoint, OcpiVersion, OcpiVersionDetails } from './schemas/version.ts';

export const OCPI_VERSION = '2.2.1';

export function ourVersions(origin: string): OcpiVersion[] {
  return [{ version: OCPI_VERSION, url: ourUrls(origin).details }];
}

export function ourVersionDetails(origin: string): OcpiVersionDetails {
  const url = ourUrls(origin).module;
  const endpoints: OcpiEndpoint[] = [
    { identifier: 'credentials', role: 'SENDER', url: url('credentials') },
    { identifier: 'credentials', role: 'RECEIVER', url: url('credentials') },
    { identifier: 'cdrs', role: 'RECEIVER', url: url('emsp/cdrs') },
    { identifier: 'sessions', role: 'RECEIVER', url: url('emsp/sessions') },
    { identifier: 'tariffs', role: 'RECEIVER', url: url('emsp/tariffs') },
    { identifier: 'tokens', role: 'SENDER', url: url('emsp/tokens') },
    { identifier: 'commands', role: 'SENDER', url: url('emsp/commands') },
  ];
  return { version: OCPI_VERSION, endpoints };
}

export function ourCredentials(token: string, origin: string): OcpiCredentials {
  const s = ocpiSettings();
  return {
    token, url: ourUrls(origin).versions,
    roles: [{ role: 'EMSP', business_details: { name: s.businessName }, party_id: s.partyId, country_code: s.countryCode }],
  };
}
