/** The keys of a record written once with their labels (or descriptors), in order, as the tuple z.enum takes. */
export const keysOf = <K extends string>(record: Record<K, unknown>) => Object.keys(record) as [K, ...K[]];
