// fontkit (pdfkit's font engine) ships no types; the documents only parse fonts with it (pdf-fonts.ts).
declare module 'fontkit' {
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}
