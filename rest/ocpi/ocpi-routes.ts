// Every OCPI operation this eMSP serves (mounted by ocpi-router.ts under /ocpi).
import { cdrRoutes } from './cdrs.routes.ts';
import { commandRoutes } from './commands.routes.ts';
import { credentialsRoutes } from './credentials.routes.ts';
import type { OcpiRoute } from './ocpi-router.ts';
import { sessionRoutes } from './sessions.routes.ts';
import { tariffRoutes } from './tariffs.routes.ts';
import { tokenRoutes } from './tokens.routes.ts';
import { versionRoutes } from './versions.routes.ts';

export const ocpiRoutes: OcpiRoute[] = [...versionRoutes, ...credentialsRoutes, ...cdrRoutes, ...sessionRoutes, ...tariffRoutes, ...tokenRoutes, ...commandRoutes];
