/**
 * The current user only carries a masked mobile (138****0000); a typed full number must agree with its
 * visible digits before we ask the server for an unbind code.
 */
export function matchesMaskedMobile(full: string, masked: string | null | undefined): boolean {
  if (!masked) return false;
  const digits = full.trim();
  if (digits.length !== masked.length) return false;
  for (let i = 0; i < masked.length; i++) {
    if (masked[i] !== '*' && masked[i] !== digits[i]) return false;
  }
  return true;
}
