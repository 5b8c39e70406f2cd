/**
 * The style nonce the server puts into each page and its Content-Security-Policy (style-src 'nonce-…').
 * antd injects its CSS-in-JS as <style> tags, which the policy only lets through with this nonce. The browser
 * hides the attribute's value from the DOM once the page loads; the `nonce` property still has it.
 */
export const cspNonce: string | undefined =
  document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
