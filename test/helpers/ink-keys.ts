// Typing into an Ink app under ink-testing-library: each key is written, then the test waits until
// Ink has handled it, in event-loop turns rather than milliseconds.
//
// Ink 6 reads what is written at once (the test stdin emits 'readable' synchronously) and runs the
// input handlers inside one batched, synchronous React update. Only a lone ESC waits: Ink holds it
// back (it may start a longer sequence) and lets it go on the next setImmediate turn. React's passive
// effects run on a later turn of the same queue, so two turns cover both.

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Resolves once Ink has handled what was written before (the held-back ESC included). */
export async function inkHandled(): Promise<void> {
  await turn();
  await turn();
}

/** Writes each key on its own, as a terminal delivers key presses, and waits until Ink has handled it. */
export async function pressKeys(stdin: { write: (s: string) => void }, ...keys: readonly string[]): Promise<void> {
  for (const key of keys) {
    stdin.write(key);
    await inkHandled();
  }
}
