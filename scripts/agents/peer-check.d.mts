export interface PeerCase {
  readonly peer: string;
  /** `<peer>:<tool>:<test name>`: where the case comes from. */
  readonly ref: string;
  readonly tool: string;
  /** The state as the peer names it. */
  readonly peerState: string;
  /** The expectation in corral's terms (busy, idle, waiting, prompt, no-prompt, not-busy, ...). */
  readonly expect: string;
  /** The verdict kinds that agree with it. */
  readonly agrees: readonly string[];
  readonly lines: string[];
}

export interface PeerDisagreement {
  readonly ref: string;
  readonly expected: string;
  /** The verdict kind corral gives. */
  readonly corral: 'permission' | 'stopped' | 'busy' | 'none';
  readonly reason: string;
}

export const PEERS: readonly string[];
export const DISAGREEMENTS_FILE: string;
export function readPeerCases(dir?: string): PeerCase[];
export function readDisagreements(file?: string): PeerDisagreement[];
export function isFalseStuck(c: PeerCase, kind: string): boolean;
export function peerMarkdown(
  classify: (lines: string[]) => { prompt: boolean; reason: string | null; busy: boolean },
): string;
