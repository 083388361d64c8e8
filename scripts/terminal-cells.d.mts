/** The cells the tmux at `binary` draws each of `texts` in, read from the cursor (a server of its own). */
export function measureCells(binary: string, texts: readonly string[], options?: { readonly timeoutMs?: number }): Promise<number[]>;
