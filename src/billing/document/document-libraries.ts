// The libraries that draw documents load when a document or a logo is first drawn, not with the
// service: every process and its worker thread imported pdfkit (with fontkit's tables), svg-to-pdfkit
// and xmlbuilder2 at start, some 170 ms of CPU each, though most never render a document.
import type SVGtoPDFFunction from 'svg-to-pdfkit';
import type { create as createXml } from 'xmlbuilder2';

export interface DocumentLibraries {
  PDFDocument: typeof import('pdfkit');
  SVGtoPDF: typeof SVGtoPDFFunction;
  createXml: typeof createXml;
}

let loading: Promise<DocumentLibraries> | null = null;

/** pdfkit, svg-to-pdfkit and xmlbuilder2, imported on the first call. */
export function documentLibraries(): Promise<DocumentLibraries> {
  loading ??= Promise.all([import('pdfkit'), import('svg-to-pdfkit'), import('xmlbuilder2')])
    .then(([pdfkit, svg, xml]) => ({ PDFDocument: pdfkit.default, SVGtoPDF: svg.default, createXml: xml.create }));
  return loading;
}
