// The worker's part of an approval: render the draft of the primary document, store it as the
// preview and mark the box ready. A box reopened meanwhile is left alone.
import { LockMode } from '@mikro-orm/core';
import type { Em } from '../platform/orm.ts';
import { BillingBox } from './billing-box.entity.ts';
import { boxDetails } from './billing-box.queries.ts';
import { deleteDrafts, putDocument } from './document-store.ts';
import { renderPreview } from './render-documents.ts';

export async function renderDraft(em: Em, boxId: string): Promise<void> {
  await em.transactional(async (tx) => {
    const box = await tx.findOne(BillingBox, { id: boxId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!box || box.state !== 'approved') return;
    const [data] = await boxDetails(tx, [boxId]);
    await deleteDrafts(tx, boxId);
    await putDocument(tx, box.admin.id, boxId, {
      filename: 'draft.pdf', contentType: 'application/pdf', bytes: await renderPreview(tx, data), primary: false, draft: true,
    });
    box.markReady();
    await tx.flush();
  });
}
