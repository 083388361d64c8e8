// The recorded side requests of chat UIs (test/fixtures/side-requests/*.json): one per prompt in
// src/server/bridge/side-requests.ts, each with the source it was taken from.

import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface SideRequestFixture {
  readonly id: string;
  readonly source: string;
  readonly request: {
    readonly model: string;
    readonly stream: boolean;
    readonly messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  };
}

const DIR = fileURLToPath(new URL('../fixtures/side-requests/', import.meta.url));

export function sideRequestFixtures(): SideRequestFixture[] {
  return readdirSync(DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(`${DIR}${name}`, 'utf8')) as SideRequestFixture);
}
