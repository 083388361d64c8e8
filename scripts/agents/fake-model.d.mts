/** A request in the neutral form the scripted model decides on. */
export interface Turn {
  readonly api: string;
  readonly model: string;
  /** Names of the tools the request offers. */
  readonly tools: string[];
  readonly system: string;
  /** The user's last message (the keywords are looked for here). */
  readonly lastUser: string;
  /** The request carries a tool's result (and nothing new from the user). */
  readonly afterTool: boolean;
  /** The JSON schema the answer must follow, for requests that ask for one. */
  readonly schema: object | null;
  readonly lastCall?: string | null;
  /** The text of the last tool result, when the request carries one (Anthropic and Responses). */
  readonly lastResult?: string | null;
  readonly deferred?: string[];
  /** Tool calls the model made since the user's last message (1 after the first result). */
  readonly callsSinceUser?: number;
  /** MCP tool names (`mcp__server__tool`) the request mentions, for loading with a tool search. */
  readonly deferredMcp?: string[];
}

/** What the scripted model answers. */
export interface Reply {
  readonly text?: string;
  readonly call?: { readonly name: string; readonly args: object };
  readonly thinkMs?: number;
  readonly slowMs?: number;
  readonly stall?: boolean;
  /** An HTTP error status to answer with instead (429, 500). */
  readonly error?: number;
}

export interface RequestEntry {
  readonly api: string;
  readonly method: string;
  readonly path: string;
  readonly turn: Turn | null;
  readonly reply: Reply | null;
}

export interface FakeModel {
  /** `http://127.0.0.1:PORT`, no trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Every request so far, in order. */
  readonly requests: RequestEntry[];
  /** Ends open streams (stalled ones too) and stops listening. */
  close(): Promise<void>;
}

export interface FakeModelOptions {
  readonly port?: number;
  /** How long THINKLONG reasons, and SLOWREPLY streams (ms; default 600 000). */
  readonly thinkMs?: number;
  readonly slowMs?: number;
  /** Each request body is written here (debugging). */
  readonly dumpDir?: string;
  readonly onRequest?: (entry: RequestEntry) => void;
}

export const KEYWORDS: Readonly<Record<string, string>>;
export const LONG_TEXT: string;
export const TOOLS: Readonly<Record<string, readonly { name: string; args: (value?: string) => object }[]>>;
export function decide(turn: Turn, options?: { thinkMs?: number; slowMs?: number }): Reply;
export function sampleOf(schema: unknown): unknown;
export function startFakeModel(options?: FakeModelOptions): Promise<FakeModel>;
