// Seeds for generated test inputs: a fixed one always (so a run is repeatable), and in CI a fresh
// one as well, printed so that a failure can be replayed with CORRAL_TEST_SEED=<seed>.

import { randomInt } from 'node:crypto';
import { mustNotSkip } from './skips.js';

/** A small deterministic generator (32-bit state, xorshift steps): same seed, same sequence. */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  /** A float in [0, 1). */
  next(): number {
    let x = this.state;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.state = x;
    return x / 0x1_0000_0000;
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)] as T;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }
}

/**
 * The seeds a generated test runs with: CORRAL_TEST_SEED alone when set (replaying a failure);
 * otherwise `fixed`, plus a new seed under CI (printed).
 */
export function testSeeds(fixed: number, env: NodeJS.ProcessEnv = process.env): number[] {
  const replay = env.CORRAL_TEST_SEED;
  if (replay !== undefined && /^\d+$/.test(replay)) return [Number(replay)];
  if (!mustNotSkip(env)) return [fixed];
  const fresh = randomInt(1, 0x7fff_ffff);
  process.stderr.write(`generated inputs: new seed ${fresh} (replay with CORRAL_TEST_SEED=${fresh})\n`);
  return [fixed, fresh];
}
