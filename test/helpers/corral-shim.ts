// A `corral` command on PATH for tests that type `corral ...` into a shell: it runs the built
// dist/bin/corral.js of this checkout.

import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN_JS = fileURLToPath(new URL('../../dist/bin/corral.js', import.meta.url));

export function corralShim(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'corral-shim-'));
  const file = join(dir, 'corral');
  writeFileSync(file, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(MAIN_JS)} "$@"\n`);
  chmodSync(file, 0o755);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Single-quotes a value for a bash command line typed by the test itself. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}
