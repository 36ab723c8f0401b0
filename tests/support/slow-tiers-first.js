// jest orders a run by each file's last duration, and by file size when it has none, as on a fresh clone (CI).
// Size says nothing about the tiers that build images and start a cluster: the kubernetes suite (about 19 min)
// would start about half-way through a cold run and leave the other worker idle at the end. These tiers go
// first, longest first, as jest itself orders them once it has timings; the rest keep jest's order.
const Sequencer = require('@jest/test-sequencer').default;

const SLOW_TIERS = ['kubernetes', 'compose', 'faults'];

class SlowTiersFirst extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = SLOW_TIERS.indexOf(test.context.config.displayName?.name);
      return index === -1 ? SLOW_TIERS.length : index;
    };
    const ordered = super.sort(tests);
    return ordered
      .map((test, position) => ({ test, position }))
      .sort((a, b) => rank(a.test) - rank(b.test) || a.position - b.position)
      .map(({ test }) => test);
  }
}

module.exports = SlowTiersFirst;
