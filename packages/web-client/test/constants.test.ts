import * as contracts from '@logovote/contracts';

import * as constants from '../src/constants';

describe('constants restated from @logovote/contracts (kept out of the zod bundle)', () => {
  it.each(Object.entries(constants))('%s equals the contract value', (name, value) => {
    expect(value).toEqual((contracts as Record<string, unknown>)[name]);
  });
});
