// Generated inputs that can be replayed. Two shapes, used by different tests: a seeded generator
// (mulberry32) with testSeed, one seed a run (fixed, new in CI); and SeededRandom (xorshift) with
// testSeeds, the fixed seed always plus a new one in CI. CORRAL_TEST_SEED replays a printed seed.

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


export function testSeed(name: string, fixed = 20251203): number {
  const given = process.env.CORRAL_TEST_SEED;
  const seed = given !== undefined && given !== '' ? Number(given) : process.env.CI === 'true' ? Math.floor(Math.random() * 2 ** 31) : fixed;
  console.log(`${name}: seed ${seed} (replay with CORRAL_TEST_SEED=${seed})`);
  return seed;
}

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
}

export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: (items) => items[int(items.length)] as (typeof items)[number] };
}
