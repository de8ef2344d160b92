// What this service says about itself over OCPI: its party, the public base URL peers call, and
// how long a CPO may take to answer a command. From the environment, with defaults for one instance.
export interface OcpiSettings {
  countryCode: string;
  partyId: string;
  businessName: string;
  /** Base URL peers reach this service at (`https://backoffice.example.com`); when unset, the origin of the request at hand. */
  publicUrl: string | null;
  commandTimeoutSeconds: number;
}

export function ocpiSettings(env: NodeJS.ProcessEnv = process.env): OcpiSettings {
  const timeout = Number(env.SVC_OCPI_COMMAND_TIMEOUT_SECONDS ?? 120);
  return {
    countryCode: (env.SVC_OCPI_COUNTRY_CODE ?? 'NL').toUpperCase(),
    partyId: (env.SVC_OCPI_PARTY_ID ?? 'MSP').toUpperCase(),
    businessName: env.SVC_OCPI_BUSINESS_NAME ?? 'Charging network service',
    publicUrl: env.SVC_OCPI_PUBLIC_URL?.replace(/\/+$/, '') || null,
    commandTimeoutSeconds: Number.isFinite(timeout) && timeout > 0 ? timeout : 120,
  };
}

/**
 * Whether peers may be called at private, loopback and link-local addresses (SVC_OCPI_PRIVATE_TARGETS=allow:
 * peers inside the operator's own network); else only public ones (src/ocpi/ocpi-client.ts).
 */
export const privatePeerTargetsAllowed = (env: NodeJS.ProcessEnv = process.env): boolean => env.SVC_OCPI_PRIVATE_TARGETS === 'allow';

/** Our base URL (the public URL, else the request's origin), our versions URL and the base of the 2.2.1 modules below it. */
export function ourUrls(origin: string) {
  const base = ocpiSettings().publicUrl ?? origin;
  return { base, versions: `${base}/ocpi/versions`, details: `${base}/ocpi/2.2.1`, module: (path: string) => `${base}/ocpi/2.2.1/${path}` };
}
