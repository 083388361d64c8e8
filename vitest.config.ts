import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start real tmux servers and HTTP servers; two cores, so keep it modest.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
