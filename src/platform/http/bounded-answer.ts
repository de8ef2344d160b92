// The body of an answer to a call we made, read up to a limit (by default the limit of the bodies
// we accept, MAX_BODY_BYTES): a peer cannot make us hold an answer of any size. A declared
// content-length past the limit is refused before reading; otherwise the stream is cancelled as
// soon as it passes the limit.
import { MAX_BODY_BYTES } from './body.ts';

/** The answer's text, or null when it exceeds `limit` bytes. */
export async function boundedAnswerText(response: Response, limit = MAX_BODY_BYTES): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
