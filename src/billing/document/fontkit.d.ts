// fontkit (pdfkit's font engine) ships no types; the documents only parse fonts with it (pdf-fonts.ts).
declare module 'fontkit' {
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}

// pdfkit 0.20 registers a font fontkit parsed (one with `layout`); its types know only files and bytes.
declare namespace PDFKit.Mixins {
  interface PDFFont {
    registerFont(name: string, src: import('./pdf-fonts.ts').ParsedFont): this;
  }
}
