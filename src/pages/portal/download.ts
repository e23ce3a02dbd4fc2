/**
 * Saving a file the app fetched itself (the settlement CSV needs the bearer token, which a plain
 * link cannot send): the Blob behind an object URL, clicked as a download with its name, and
 * the URL let go again.
 */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the bytes to the browser's download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** "Café Kanelbullen" → "cafe-kanelbullen": a name safe in a file name on every system. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return slug || 'handlare';
}

/** The settlement file's name: merchant and period (its first and last day; "start"/"idag" when open). */
export function settlementFileName(merchantName: string, firstDay: string | null, lastDay: string | null): string {
  return `greetie-${slugOf(merchantName)}-${firstDay ?? 'start'}-till-${lastDay ?? 'idag'}.csv`;
}
