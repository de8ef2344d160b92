// Operations the spec lists as removed. decisions.md: removed endpoints answer 404, even where
// another method still lives on the same path.
const REMOVED: { method: string; pattern: RegExp }[] = [
  { method: 'DELETE', pattern: /^\/main\/v1\/customer\/[^/]+\/block-charge-auth-requests$/ },
  { method: 'DELETE', pattern: /^\/main\/v1\/msp-token\/[^/]+\/block-charge-auth-requests$/ },
  { method: 'PUT', pattern: /^\/main\/v1\/cpo-evse\/[^/]+\/reimbursement-mandatory$/ },
  { method: 'PUT', pattern: /^\/main\/v1\/cpo-evse\/[^/]+$/ },
  { method: 'PUT', pattern: /^\/main\/v1\/cpo-evse-location\/[^/]+$/ },
  { method: 'PUT', pattern: /^\/main\/v1\/cpo-subscription-plan\/[^/]+\/[^/]+$/ },
  { method: 'DELETE', pattern: /^\/main\/v1\/cpo-reimbursement-calculation-input\/[^/]+$/ },
];

export function isRemovedOperation(method: string, path: string): boolean {
  return REMOVED.some((removed) => removed.method === method && removed.pattern.test(path));
}
