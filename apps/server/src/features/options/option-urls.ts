/** Option sources that form config `url`s point to (spec §7 generic option fetch). */
export const OPTION_URLS = [
  '/api/options/samplers',
  '/api/options/sizes',
  '/api/options/models',
  '/api/options/controlnet/modules',
  '/api/options/controlnet/models',
] as const;
