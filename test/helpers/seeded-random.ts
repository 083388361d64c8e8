// Generated inputs that can be replayed: a small seeded generator (mulberry32) and the seed a run
// uses. A fixed seed by default; CI (CI=true) takes a new one each run; CORRAL_TEST_SEED replays
// one. The seed is printed, so a failure names what to replay.

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
