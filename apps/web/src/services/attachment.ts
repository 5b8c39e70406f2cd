/**
 * The file name of a content-disposition header: RFC 5987 `filename*=UTF-8''…` first (it carries Chinese names),
 * else the plain `filename="…"`; null when there is none.
 */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded.trim());
    } catch {
      // A broken escape: fall back to the plain name below.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name || null;
}

/** Hands a downloaded blob to the browser as a file, through a short-lived object URL. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel a download the browser has not started reading yet.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
}
