/** SPEC §5: a text file's name may be at most 200 bytes; '.txt' is appended when missing. */
export const TEXT_FILE_NAME_MAX_BYTES = 200;

/** The file name to save under, or null when the name is refused. */
export function textFileName(name: string): string | null {
  if (new TextEncoder().encode(name).length > TEXT_FILE_NAME_MAX_BYTES) return null;
  return name.toLowerCase().endsWith('.txt') ? name : `${name}.txt`;
}

/** Saves text as a .txt download; refuses (and logs) a name over 200 bytes. */
export function downloadTextFile(name: string, content: string): boolean {
  const fileName = textFileName(name);
  if (!fileName) {
    console.error(`The file name is longer than ${TEXT_FILE_NAME_MAX_BYTES} bytes: refused to download "${name}"`);
    return false;
  }
  const url = URL.createObjectURL(new Blob([content], { type: 'text/plain;charset=utf-8' }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  return true;
}
