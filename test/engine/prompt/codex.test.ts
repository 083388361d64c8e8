import { describe, it } from 'vitest';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { expectFixtureVerdict, screenFixtures } from '../../helpers/screen-fixtures.js';

describe('codex screens', () => {
  for (const fixture of screenFixtures('codex')) {
    it(fixture.name, () => expectFixtureVerdict(fixture, classifyScreen(fixture.lines)));
  }
});
