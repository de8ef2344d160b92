// The import rule of the code base (docs/architecture.md, "Floors"): an area of src/ imports only
// areas on the floors below it (and itself); only the composition roots import everything. No import
// cycle of any kind, type-only imports included. `npm test` runs this (test/architecture.test.ts).
//
// Floors from the bottom, and why each sits where it is:
//   platform            HTTP plumbing, ORM setup, ids, errors, time, validity: knows no business area
//   money               exact amounts (money-math, decimal.js behind one module)
//   access              who is calling: credentials, authentication, the administration scope
//   events              the outbox: every area's entities record events, so it sits below them all
//   parties             administrations, sellers, customers, addresses, mandates, roaming partners
//   webhooks            subscriptions and deliveries of events: they name administrations (parties)
//   contracts           the contract-and-link core (validity, versions in force, defunct cascades)
//   pricing             VAT rates, rate plans, the pricing and tariff rules
//   msp                 tokens, subscriptions and links, plans, credits, corrections (priced by pricing)
//   end-users           end users and their authorizations over customers and subscriptions (msp)
//   credentials         managing API credentials: they name administrations and end-user sites
//   billing             boxes, items, documents; item sources of the areas above register themselves
//   cpo                 EVSEs, locations, reimbursement, CPO subscriptions (billed by billing)
//   sessions            charge sessions as data: ingestion, reads, drop-out cases (of msp and cpo)
//   roaming             connections, agreements, roaming costs (of sessions)
//   ocpi                the OCPI protocol: CDRs become sessions, tariffs feed roaming costs
//   session-processing  the pipeline that takes a received session through every area above
const FLOORS = [
  'platform', 'money', 'access', 'events', 'parties', 'webhooks', 'contracts', 'pricing', 'msp', 'end-users', 'credentials',
  'billing', 'cpo', 'sessions', 'roaming', 'ocpi', 'session-processing',
];

/**
 * Composition roots: they wire the areas together and may import anything. src/item-sources.ts is
 * the list of the item sources the areas above billing register with billing (the roots call it);
 * src/service-metrics.ts the metric series, read from several areas.
 */
const ROOTS = ['^src/service\\.ts$', '^src/main\\.ts$', '^src/cli\\.ts$', '^src/cli/', '^src/worker/', '^src/setup/', '^src/demo/',
  '^src/entities\\.ts$', '^src/item-sources\\.ts$', '^src/service-metrics\\.ts$', '^src/migrations/', '^mikro-orm\\.config\\.ts$', '^rest/', '^schema/'];

const area = (name) => `^src/${name}/`;

const forbidden = [
  ...FLOORS.slice(0, -1).map((name, i) => ({
    name: `floor-${name}`,
    comment: `${name} imports only the floors below it: ${FLOORS.slice(0, i).join(', ') || 'none'}`,
    severity: 'error',
    from: { path: area(name) },
    to: { path: `^src/(${FLOORS.slice(i + 1).join('|')})/` },
  })),
  {
    name: 'areas-below-roots',
    comment: 'an area never imports a composition root (service, worker, CLI, setup, demo, the entity list, REST, GraphQL)',
    severity: 'error',
    from: { path: `^src/(${FLOORS.join('|')})/` },
    to: { path: ROOTS.filter((root) => root !== '^src/migrations/').join('|') },
  },
  {
    name: 'known-areas',
    comment: 'every folder of src/ is a floor or a composition root',
    severity: 'error',
    from: { path: '^src/', pathNot: [...FLOORS.map(area), ...ROOTS].join('|') },
    to: {},
  },
  {
    name: 'graphql-not-rest',
    comment: 'schema/ imports nothing from rest/: both transports call the same services and queries',
    severity: 'error',
    from: { path: '^schema/' },
    to: { path: '^rest/' },
  },
  {
    name: 'no-circular',
    comment: 'no import cycle, type-only imports included',
    severity: 'error',
    from: {},
    to: { circular: true },
  },
];

module.exports = {
  forbidden,
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
    includeOnly: '^(src|rest|schema|mikro-orm\\.config\\.ts)',
  },
};
