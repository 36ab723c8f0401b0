import { loadavg } from 'node:os';
import sharp from 'sharp';
import { LOGO_KINDS } from './budgets';
import { launchBrowser } from '../../tests/support/browser';
import { runLighthouse, type LighthouseSummary } from './lighthouse';
import { LIGHTHOUSE_RUNS, settle } from './lighthouse-levels';
import { BENCH_QUESTION, createPolls, type LogoFile } from './polls';
import { measureSlowPhone, SLOW_PHONE, type SlowPhoneLoad } from './slow-phone';

/** The three kinds of logo set the first-load figures are measured with (issue: first load whatever the logos). */
export type LogoKind = (typeof LOGO_KINDS)[number];

export const LOGO_KIND_DESCRIPTIONS: Record<LogoKind, string> = {
  'small PNG': 'four 48 × 32 PNGs',
  SVG: 'four SVGs (viewBox only, no width or height)',
  'large PNG': 'four 1024 × 1024 PNGs',
};

const COLOURS = ['#dc2626', '#2563eb', '#16a34a', '#ca8a04'];

/** A flat logo in a viewBox of 0 0 120 80: a rounded badge with a shape of its own. */
function logoSvg(index: number): string {
  const colour = COLOURS[index % COLOURS.length]!;
  const shapes = [
    '<circle cx="60" cy="40" r="22" fill="#fff"/>',
    '<rect x="38" y="18" width="44" height="44" rx="6" fill="#fff"/>',
    '<path d="M60 14 L86 62 L34 62 Z" fill="#fff"/>',
    '<path d="M20 48 Q40 18 60 48 T100 48" fill="none" stroke="#fff" stroke-width="10" stroke-linecap="round"/>',
  ];
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 80"><rect width="120" height="80" rx="14" fill="${colour}"/>${shapes[index % shapes.length]!}</svg>`;
}

/** Four logos of `kind`, as a creator would upload them. */
export async function logosOfKind(kind: LogoKind): Promise<LogoFile[]> {
  return Promise.all(
    [0, 1, 2, 3].map(async (index): Promise<LogoFile> => {
      const svg = logoSvg(index);
      if (kind === 'SVG') return { name: `logo-${index + 1}.svg`, type: 'image/svg+xml', bytes: Buffer.from(svg) };
      const [width, height] = kind === 'small PNG' ? [48, 32] : [1024, 1024];
      const bytes = await sharp(Buffer.from(svg), { density: 72 * (width / 120) })
        .resize(width, height, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } })
        .png()
        .toBuffer();
      return { name: `logo-${index + 1}.png`, type: 'image/png', bytes };
    }),
  );
}

export interface LogoKindResults {
  kind: LogoKind;
  pollId: string;
  /** Lighthouse on `/vote/:id` and `/results/:id`, each the median run of LIGHTHOUSE_RUNS. */
  pages: LighthouseSummary[];
  /** The voting page on SLOW_PHONE, SLOW_PHONE_RUNS times. */
  slowPhone: SlowPhoneLoad[];
}

export interface LogoKindsResults {
  /** Lighthouse on `/`, which shows no poll's logos. */
  landing: LighthouseSummary;
  kinds: LogoKindResults[];
  /** Load average (1/5/15 min) when the step began; share of the CPU busy before the first run and the seconds waited for it. */
  load: number[];
  busyShare: number;
  settleSeconds: number;
}

const SLOW_PHONE_RUNS = 3;

/**
 * First load whatever the logos: a poll of each LOGO_KINDS, Lighthouse on `/` and on each poll's voting and results
 * pages, and each poll's voting page on a slow phone.
 */
export async function measureLogoKinds(options: { gateway: string; log: (line: string) => void }): Promise<LogoKindsResults> {
  const { gateway, log } = options;
  const polls = [];
  for (const kind of LOGO_KINDS) {
    const { polls: created } = await createPolls(gateway, 1, await logosOfKind(kind));
    polls.push({ kind, pollId: created[0]!.sessionId });
  }
  const { busyShare, settleSeconds } = await settle(log);
  const load = loadavg();
  log(`Lighthouse on / and on the voting and results pages of ${LOGO_KINDS.join(', ')} logos, ${LIGHTHOUSE_RUNS} runs each`);
  const summaries = await runLighthouse({
    runs: LIGHTHOUSE_RUNS,
    pages: [
      { label: '/', url: `${gateway}/` },
      ...polls.flatMap(({ kind, pollId }) => [
        { label: `/vote/:id ${kind}`, url: `${gateway}/vote/${pollId}` },
        { label: `/results/:id ${kind}`, url: `${gateway}/results/${pollId}` },
      ]),
    ],
  });
  const pageOf = (label: string) => {
    const summary = summaries.find((each) => each.label === label);
    if (!summary) throw new Error(`Lighthouse gave no result for ${label}`);
    return { ...summary, label: label.split(' ')[0]! };
  };
  log(`the voting page on a slow phone (${SLOW_PHONE.name}), ${SLOW_PHONE_RUNS} times per kind`);
  const browser = await launchBrowser();
  const kinds: LogoKindResults[] = [];
  try {
    for (const { kind, pollId } of polls) {
      const slowPhone: SlowPhoneLoad[] = [];
      for (let run = 0; run < SLOW_PHONE_RUNS; run++)
        slowPhone.push(await measureSlowPhone(browser, `${gateway}/vote/${pollId}`, BENCH_QUESTION));
      kinds.push({ kind, pollId, pages: [pageOf(`/vote/:id ${kind}`), pageOf(`/results/:id ${kind}`)], slowPhone });
    }
  } finally {
    await browser.close();
  }
  return { landing: pageOf('/'), kinds, load, busyShare, settleSeconds };
}
