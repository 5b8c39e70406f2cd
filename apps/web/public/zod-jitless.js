// Runs before the app's modules (a classic script, not a module): zod's schemas, built when the contracts module
// loads, probe for eval (new Function) unless jitless is set first. The page's CSP forbids eval, so the refused
// probe would be reported as a violation on every page. zod reads its settings from this global object.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
