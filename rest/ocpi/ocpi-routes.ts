// Every OCPI operation this eMSP serves (mounted by ocpi-router.ts under /ocpi).
import { credentialsRoutes } from './credentials.routes.ts';
import type { OcpiRoute } from './ocpi-router.ts';
import { versionRoutes } from './versions.routes.ts';

export const ocpiRoutes: OcpiRoute[] = [...versionRoutes, ...credentialsRoutes];
