/**
 * Module resolution hook (https://nodejs.org/api/module.html#customization-hooks):
 * adds the `@troupe/source` export condition, so the workspace packages resolve
 * to their TypeScript sources (`src/index.ts`) instead of a `dist/` build.
 */
export async function resolve(specifier, context, nextResolve) {
  const conditions = context.conditions.includes("@troupe/source")
    ? context.conditions
    : [...context.conditions, "@troupe/source"];
  return nextResolve(specifier, { ...context, conditions });
}
