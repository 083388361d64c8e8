import { describe, it } from 'vitest';
import { classifyScreen } from '../../../src/engine/prompt/matcher.js';
import { expectFixtureVerdict, screenFixtures } from '../../helpers/screen-fixtures.js';

describe('generic screens', () => {
  for (const fixture of screenFixtures('generic')) {
    it(fixture.name, () => expectFixtureVerdict(fixture, classifyScreen(fixture.lines)));
  }
});
