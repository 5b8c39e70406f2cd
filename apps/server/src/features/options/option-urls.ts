import { OPTION_SOURCES } from '@huafang/contracts';

/** Option sources that form config `url`s point to (spec §7 generic option fetch). */
export const OPTION_URLS: readonly string[] = OPTION_SOURCES.map((source) => source.value);
