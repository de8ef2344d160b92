// Webhook subscriptions (decisions.md "Events"): create, merge-update (disable, enable, new
// secret), redeliver from an event on, and what a credential sees: a subscription belongs to the
// administrations it names, defaulting to the creator's; a credential limited to administrations
// sees and changes only subscriptions within them.
import { LockMode } from '@mikro-orm/core';
import { callerScope } from '../access/admin-scope.ts';
import { visibleAdministration } from '../parties/customer-input.ts';
import { InvalidInputError, NotFoundError } from '../platform/errors.ts';
import { flushUnique } from '../platform/flush-unique.ts';
import { isUuid } from '../platform/ids.ts';
import { Administration } from '../parties/administration.entity.ts';
import { addJob } from '../platform/jobs.ts';
import { settledPosition } from '../events/settled-position.ts';
import { isEventId } from '../events/event.queries.ts';
import type { Em } from '../platform/orm.ts';
import { literalTargetProblem } from './webhook-target.ts';
import { knownEventKinds } from '../events/event-kinds.ts';
import { sealSecret } from './secret-box.ts';
import { WEBHOOK_DELIVER } from './webhook-job.ts';
import { WebhookSubscription } from './webhook-subscription.entity.ts';
import { deliveredAdministrations, isVisibleTo, webhookSubscriptionData, type WebhookSubscriptionData } from './webhook-subscription.queries.ts';

/** Absent (undefined): unchanged; null clears, which only admin_ids and external_reference may be. */
export interface WebhookSubscriptionInput {
  url?: string | null;
  kinds?: string[] | null;
  secret?: string | null;
  adminIds?: string[] | null;
  externalReference?: string | null;
  disabled?: boolean | null;
}

const REQUIRED = { url: 'url', kinds: 'kinds', secret: 'secret', disabled: 'disabled' } as const;

/** The highest event id: a cursor at (position, this) stands after every event of that position. */
const AFTER_EVERY_EVENT = '9223372036854775807';

const UNIQUE = { webhook_subscription_external_reference_unique: ['external_reference'] };

function checkUrl(url: string): void {
  let parsed: URL;
  try { parsed = new URL(url); } catch { throw new InvalidInputError('url must be an absolute http(s) URL', { path: ['url'] }); }
  if (!['http:', 'https:'].includes(parsed.protocol) || url.length > 2000) throw new InvalidInputError('url must be an http(s) URL of at most 2000 characters', { path: ['url'] });
  // The URL is answered and recorded in the subscription's events: no password in it (receivers check X-SVC-Signature).
  if (parsed.username || parsed.password) throw new InvalidInputError('url must hold no user name or password: a receiver checks X-SVC-Signature', { path: ['url'] });
  const refused = literalTargetProblem(parsed);
  if (refused) throw new InvalidInputError(`url must name a public host: ${refused} (SVC_WEBHOOK_PRIVATE_TARGETS)`, { path: ['url'] });
}

function checkKinds(kinds: string[]): string[] {
  const known = knownEventKinds();
  if (kinds.length === 0 || kinds.length > 100) throw new InvalidInputError('kinds must name 1 to 100 kinds', { path: ['kinds'] });
  kinds.forEach((kind, i) => {
    if (!known.includes(kind)) throw new InvalidInputError(`${kind} is not an event kind; kinds: ${known.join(', ')}`, { path: ['kinds', i] });
  });
  return [...new Set(kinds)];
}

function checkSecret(secret: string): string {
  if (secret.length < 16 || secret.length > 256 || secret.trim().length < 16) {
    throw new InvalidInputError('secret must have 16 to 256 characters, at least 16 of them other than white space', { path: ['secret'] });
  }
  return sealSecret(secret);
}

async function adminIdsFor(em: Em, ids: string[] | null | undefined): Promise<{ adminIds: string[] | null; allAdmins: boolean }> {
  const scope = callerScope(em);
  if (ids && ids.length > 100) throw new InvalidInputError('admin_ids holds at most 100 administrations', { path: ['admin_ids'] });
  if (!ids || ids.length === 0) return scope.all ? { adminIds: null, allAdmins: true } : { adminIds: [...scope.ids], allAdmins: false };
  // Stored as the administrations spell their ids: delivery and visibility compare them as text.
  // One query for all (ids are caseless); a missing one answers as visibleAdministration does, at its place.
  const found = await em.find(Administration, { id: { $in: ids.filter((id) => !!id) } });
  const byId = new Map(found.map((a) => [a.id.toLowerCase(), a.id]));
  const resolved: string[] = [];
  for (const [i, id] of ids.entries()) resolved.push(byId.get(id?.toLowerCase()) ?? (await visibleAdministration(em, id, ['admin_ids', i])).id);
  return { adminIds: [...new Set(resolved)], allAdmins: false };
}

/**
 * Wakes the subscription's delivery job now (a re-enabled or rewound subscription), after the
 * change committed: inside it, adding the job could deadlock with a committing change that wakes
 * the same job key.
 */
async function wake(em: Em, subscription: { id: string }): Promise<void> {
  await addJob(em.fork(), WEBHOOK_DELIVER, { subscription_id: subscription.id }, { jobKey: `webhook:${subscription.id}`, jobKeyMode: 'replace' });
}

/** The subscription to change, locked, with the secret loaded so that a new secret is recorded as a change (without its value). Reads: webhook-subscription.queries.ts. */
async function lockWebhookSubscription(em: Em, id: string): Promise<WebhookSubscription> {
  const subscription = isUuid(id)
    ? await em.findOne(WebhookSubscription, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true, populate: ['secretCiphertext'] })
    : null;
  if (!subscription || !isVisibleTo(subscription, callerScope(em))) throw new NotFoundError('webhook subscription');
  return subscription;
}

export async function createWebhookSubscription(em: Em, input: WebhookSubscriptionInput): Promise<WebhookSubscriptionData> {
  if (!input.url) throw new InvalidInputError('url is required', { path: ['url'] });
  if (!input.kinds) throw new InvalidInputError('kinds is required', { path: ['kinds'] });
  if (!input.secret) throw new InvalidInputError('secret is required', { path: ['secret'] });
  checkUrl(input.url);
  const kinds = checkKinds(input.kinds);
  const secretCiphertext = checkSecret(input.secret);
  const admins = await adminIdsFor(em, input.adminIds);
  // Only events after the subscription's creation are delivered: the cursor stands after every
  // event of the commits settled by now.
  const last = await settledPosition(em);
  return webhookSubscriptionData(await em.transactional(async (tx) => {
    const subscription = tx.create(WebhookSubscription, {
      url: input.url!, kinds, ...admins, secretCiphertext, externalReference: input.externalReference ?? null, lastPosition: last, lastEventId: AFTER_EVERY_EVENT,
      disabled: input.disabled ?? false,
    });
    await flushUnique(tx, UNIQUE);
    return subscription;
  }));
}

export async function updateWebhookSubscription(em: Em, id: string, input: WebhookSubscriptionInput): Promise<WebhookSubscriptionData> {
  let enabling = false;
  let repaired = false;
  const updated = await em.transactional(async (tx) => {
    const subscription = await lockWebhookSubscription(tx, id);
    for (const [field, param] of Object.entries(REQUIRED)) {
      if (input[field as keyof typeof REQUIRED] === null) throw new InvalidInputError(`${param} cannot be cleared`, { path: [param] });
    }
    if (input.url != null) { checkUrl(input.url); subscription.url = input.url; }
    if (input.kinds != null) subscription.kinds = checkKinds(input.kinds);
    if (input.secret != null) subscription.secretCiphertext = checkSecret(input.secret);
    if (input.adminIds !== undefined) Object.assign(subscription, await adminIdsFor(tx, input.adminIds));
    if (input.externalReference !== undefined) subscription.externalReference = input.externalReference;
    enabling = input.disabled === false && subscription.disabled;
    if (input.disabled === true) subscription.disable('disabled through the API');
    if (input.disabled === false) subscription.enable();
    // A failing subscription given a new URL or secret is tried at once, not after its back-off (up to an hour).
    repaired = (input.url != null || input.secret != null) && subscription.consecutiveFailures > 0 && !subscription.disabled;
    await flushUnique(tx, UNIQUE);
    return subscription;
  });
  if (enabling || repaired) await wake(em, updated);
  return webhookSubscriptionData(updated);
}

/**
 * Delivers again from `fromEventId` on (events the subscription concerns, in order). The event must
 * be one the subscription delivers and the caller sees (of their administrations, as delivery and
 * `GET /event` read them): any other answers as an event that does not exist, so that a
 * subscription's cursor never learns of, nor moves to, another administration's event.
 */
export async function redeliver(em: Em, id: string, fromEventId: string): Promise<WebhookSubscriptionData> {
  if (!isEventId(fromEventId)) throw new InvalidInputError('from_event_id must be an event id', { path: ['from_event_id'] });
  const caller = callerScope(em);
  const rewound = await em.transactional(async (tx) => {
    const subscription = await lockWebhookSubscription(tx, id);
    const delivered = deliveredAdministrations(subscription);
    const [event] = await tx.execute<{ position: string }[]>(`select c.position::text as position from svc_event e
      join svc_event_commit c on c.tx_id = e.tx_id where e.id = ? and c.position is not null
        and (?::boolean or e.admin_id in (select value from json_array_elements_text(?::json)))
        and (?::boolean or e.admin_id in (select value from json_array_elements_text(?::json)))`,
    [fromEventId, delivered.all, JSON.stringify(delivered.ids), caller.all, JSON.stringify(caller.ids)]);
    if (!event) throw new NotFoundError('event', { path: ['from_event_id'] });
    subscription.lastPosition = event.position;
    subscription.lastEventId = (BigInt(fromEventId) - 1n).toString();
    await tx.flush();
    return subscription;
  });
  if (!rewound.disabled) await wake(em, rewound);
  return webhookSubscriptionData(rewound);
}
