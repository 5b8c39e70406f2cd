/** A step's own name that only numbers it (the designer's default 步骤 N) says nothing the tab does not. */
const NUMBER_ONLY = /^步骤\s*\d+$/;

/** The step tab: 步骤 2 高清放大, or just 步骤 2 when the step has no name of its own. */
export function stepTabLabel(index: number, name: string): string {
  const own = name.trim();
  const number = `步骤 ${index + 1}`;
  return own === '' || NUMBER_ONLY.test(own) ? number : `${number} ${own}`;
}
