/** The page a shared link opens (`/work/:id`): readable by anyone while the work is on 灵感广场. */
export function workPagePath(id: string): string {
  return `/work/${encodeURIComponent(id)}`;
}

/** The whole address, as pasted into WeChat. */
export function workPageUrl(id: string, origin = window.location.origin): string {
  return `${origin}${workPagePath(id)}`;
}
