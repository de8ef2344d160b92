// The text of a PDF, read back with pdf-parse: what a reader of the document sees, page by page.
import { PDFParse } from 'pdf-parse';

export async function pdfPages(bytes: Buffer | Uint8Array): Promise<string[]> {
  const parser = new PDFParse({ data: new Uint8Array(bytes) });
  try {
    const result = await parser.getText();
    return result.pages.map((page: { text: string }) => page.text);
  } finally {
    await parser.destroy();
  }
}
