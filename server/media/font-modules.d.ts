// subset-font and fontverter ship no type declarations: the parts used here (server/media/subtitle-fonts.ts).
declare module 'subset-font' {
  interface SubsetOptions {
    targetFormat?: 'sfnt' | 'woff' | 'woff2';
    noHinting?: boolean;
    preserveNameIds?: number[];
  }
  export default function subsetFont(font: Buffer | Uint8Array, text: string, options?: SubsetOptions): Promise<Buffer>;
}
declare module 'fontverter' {
  export function convert(
    font: Buffer,
    to: 'sfnt' | 'woff' | 'woff2',
    from?: 'sfnt' | 'woff' | 'woff2',
  ): Promise<Buffer>;
  const fontverter: { convert: typeof convert };
  export default fontverter;
}
