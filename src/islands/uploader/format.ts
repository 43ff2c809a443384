import { LOCALE_INFO, type Locale } from '../../lib/i18n/locales.ts';

/** Sizes and speeds in the viewer's language, e.g. "12.5 MB" / "3.1 MB/s". */
export function byteFormatters(locale: Locale) {
  const lang = LOCALE_INFO[locale].htmlLang;
  const unit = (u: string) => new Intl.NumberFormat(lang, { style: 'unit', unit: u, maximumFractionDigits: 1 });
  const mb = unit('megabyte');
  const kb = unit('kilobyte');
  const mbps = unit('megabyte-per-second');
  const kbps = unit('kilobyte-per-second');
  return {
    size: (bytes: number) => (bytes >= 1e6 ? mb.format(bytes / 1e6) : kb.format(bytes / 1e3)),
    speed: (bytesPerSecond: number) =>
      bytesPerSecond >= 1e6 ? mbps.format(bytesPerSecond / 1e6) : kbps.format(bytesPerSecond / 1e3),
  };
}
