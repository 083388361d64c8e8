// Reading environment variables. For every variable corral reads, an empty value means the same as
// no value: `CORRAL_TMUX_BIN= corral` runs `tmux`, `CORRAL_PORT= corral` the default port.

export type Env = Readonly<Record<string, string | undefined>>;

/** The variable's value, or undefined when it is unset or empty. */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}
