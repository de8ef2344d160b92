// The body of an answer to a call we made, read up to a limit (by default the limit of the bodies
// we accept, MAX_BODY_BYTES): a peer cannot make us hold an answer of any size. A declared
// content-length past the limit is refused before reading; otherwise the answer is cut off as
// soon as it passes the limit.
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from './body.ts';

/** The answer's text, or null when it exceeds `limit` bytes. */
export async function boundedAnswerText(answer: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string | null> {
  if (Number(answer.headers['content-length'] ?? 0) > limit) {
    answer.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of answer as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > limit) {
      answer.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}
