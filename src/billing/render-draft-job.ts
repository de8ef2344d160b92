// The follow-up of an approval: the worker renders the draft of the primary document and the
// box becomes ready. Added in the approval's transaction (src/platform/jobs.ts).
export const RENDER_DRAFT = 'billing_render_draft';

export interface RenderDraftJob { box_id: string }

export function isRenderDraftJob(payload: unknown): payload is RenderDraftJob {
  return typeof payload === 'object' && payload !== null && typeof (payload as RenderDraftJob).box_id === 'string';
}
