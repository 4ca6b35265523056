/** Builds test files (paths relative to the repository) as `npm test` runs them; see test-bundle.mjs. */
export function bundleTests(files: string[]): Promise<{ modules: Map<string, string>; remove: () => void }>;
