// OCPI 2.2.1 versions module: Version (GET versions) and VersionDetails with its Endpoints.
import { arrayOf, enumOf, object, url } from './common.ts';

export const VERSION_NUMBERS = ['2.0', '2.1', '2.1.1', '2.2', '2.2.1'] as const;
export const MODULE_IDS = ['cdrs', 'chargingprofiles', 'commands', 'credentials', 'hubclientinfo', 'locations', 'sessions', 'tariffs', 'tokens'] as const;
export const INTERFACE_ROLES = ['SENDER', 'RECEIVER'] as const;

export const versionSchema = object({ version: enumOf(VERSION_NUMBERS), url }, ['version', 'url']);
export const versionListSchema = arrayOf(versionSchema);
export const endpointSchema = object({ identifier: enumOf(MODULE_IDS), role: enumOf(INTERFACE_ROLES), url }, ['identifier', 'role', 'url']);
export const versionDetailsSchema = object({ version: enumOf(VERSION_NUMBERS), endpoints: arrayOf(endpointSchema, 1) }, ['version', 'endpoints']);

export type ModuleId = typeof MODULE_IDS[number];
export type InterfaceRole = typeof INTERFACE_ROLES[number];
export interface OcpiVersion { version: string; url: string }
export interface OcpiEndpoint { identifier: ModuleId; role: InterfaceRole; url: string }
export interface OcpiVersionDetails { version: string; endpoints: OcpiEndpoint[] }
