// pdfkit writes each operator of a page's content (a move, a glyph run, a colour) as a Uint8Array of
// its own (PDFReference.write), and a document with buffered pages (the footers need the page count)
// keeps every page's arrays until it ends: about 50 per annex row, some 200 bytes each beside the
// few bytes they hold. A box of 10,000 sessions held half a million of them, 100 MB of its 200 MB
// peak heap. A page's text operators are collected here as one string and handed to pdfkit as one
// array per CHUNK characters (and before any binary chunk, in order): the stream's bytes are the same.
const CHUNK = 64 * 1024;

interface ContentReference {
  write(chunk: string | Uint8Array): void;
  finalize(): void;
}

function coalesce(content: ContentReference): void {
  const write = content.write.bind(content);
  const finalize = content.finalize.bind(content);
  let pending = '';
  const flush = (): void => {
    if (!pending) return;
    // pdfkit writes a string as its characters' low bytes (its fromBinaryString): latin1.
    write(Buffer.from(pending, 'latin1'));
    pending = '';
  };
  content.write = (chunk) => {
    if (chunk instanceof Uint8Array) {
      flush();
      write(chunk);
      return;
    }
    pending += `${chunk}\n`;
    if (pending.length >= CHUNK) flush();
  };
  content.finalize = () => {
    flush();
    finalize();
  };
}

/** Makes every page of `pdf` (the current one and those added later) collect its content operators (see above). */
export function coalescePageContent(pdf: PDFKit.PDFDocument): void {
  const contentOf = (): ContentReference => (pdf.page as unknown as { content: ContentReference }).content;
  if (pdf.page) coalesce(contentOf());
  pdf.on('pageAdded', () => coalesce(contentOf()));
}
