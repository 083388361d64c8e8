// Waiting for a condition instead of sleeping for a guessed time: the test goes on as soon as the
// condition holds, and fails with what it waited for when the deadline passes.

export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 5000,
  what = 'condition',
  intervalMs = 10,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
