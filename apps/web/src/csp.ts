/**
 * The style nonce the server puts into each page and its Content-Security-Policy (style-src 'nonce-…').
 * antd injects its CSS-in-JS as <style> tags, which the policy only lets through with this nonce. The browser
 * hides the attribute's value from the DOM once the page loads; the `nonce` property still has it.
 */
export const cspNonce: string | undefined =
  typeof document === 'undefined'
    ? undefined
    : document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;

/**
 * antd passes the nonce to its own style tags, but @rc-component/util still creates a few without it (the scroll
 * lock of dialogs, the scrollbar measurement; ant-design/ant-design issue 58150), so style elements our scripts create
 * get it here. Only scripts can reach this, and they can read the nonce anyway; styles injected as markup cannot.
 */
if (cspNonce) {
  const nonce = cspNonce;
  const createElement = document.createElement.bind(document);
  document.createElement = ((tagName: string, options?: ElementCreationOptions) => {
    const element = createElement(tagName, options);
    if (element instanceof HTMLStyleElement) element.nonce = nonce;
    return element;
  }) as typeof document.createElement;
}
