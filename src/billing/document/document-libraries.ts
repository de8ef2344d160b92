// The libraries that draw documents load when a document or a logo is first drawn, not with the
// service: every process and its worker thread imported pdfkit (with fontkit's tables), svg-to-pdfkit
// and xmlbuilder2 at start, some 170 ms of CPU each, though most never render a document. The
// documents' fonts are parsed with them, once (pdf-fonts.ts).
import type SVGtoPDFFunction from 'svg-to-pdfkit';
import type { create as createXml } from 'xmlbuilder2';
import { parseDocumentFonts, type DocumentFonts } from './pdf-fonts.ts';

export interface DocumentLibraries {
  PDFDocument: typeof import('pdfkit');
  SVGtoPDF: typeof SVGtoPDFFunction;
  createXml: typeof createXml;
  fonts: DocumentFonts;
}

let loading: Promise<DocumentLibraries> | null = null;

/** pdfkit, svg-to-pdfkit and xmlbuilder2, imported on the first call, and the fonts parsed by pdfkit's fontkit. */
export function documentLibraries(): Promise<DocumentLibraries> {
  loading ??= Promise.all([import('pdfkit'), import('svg-to-pdfkit'), import('xmlbuilder2'), import('fontkit')])
    .then(([pdfkit, svg, xml, fontkit]) => ({
      PDFDocument: pdfkit.default, SVGtoPDF: svg.default, createXml: xml.create, fonts: parseDocumentFonts(fontkit.create),
    }));
  return loading;
}
