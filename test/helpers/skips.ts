// When a test that needs an optional tool (a browser, the agent CLIs, a notification daemon) may
// skip itself. CI sets CI=true, and CORRAL_TEST_NO_SKIP=1 asks the same anywhere: then a missing
// tool is a failure, so such a run never reports a skipped test as passing.

export function mustNotSkip(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.CI === 'true' || env.CORRAL_TEST_NO_SKIP === '1';
}
