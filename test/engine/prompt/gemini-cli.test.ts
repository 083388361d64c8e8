import { describe, it } from 'vitest';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { expectFixtureVerdict, screenFixtures } from '../../helpers/screen-fixtures.js';

describe('gemini-cli screens', () => {
  for (const fixture of screenFixtures('gemini-cli')) {
    it(fixture.name, () => expectFixtureVerdict(fixture, classifyScreen(fixture.lines)));
  }
});
