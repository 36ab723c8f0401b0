/**
 * SVGs that cost too much to draw are refused before anything draws them, with a clear JSON 422, through the
 * gateway of the real stack: at poll creation and at the moderation test. The SVG policy knows the XLink
 * namespace by its URI, whatever the prefix an attacker binds to it.
 */
import { testStack } from '../support/stack-env';
import { nestedUseSvg } from '../../packages/media-pipeline/test/fixtures';
import { useCycleSvg, xlinkPrefixAnimation } from './support/fixtures';
import { call, jsonMessage, multipart, targetOf, type Answer } from './support/http';

const { gatewayUrl } = testStack();
/** Addresses of this file alone, so the gateway's per-address limits count these requests apart. */
const target = (index: number) => targetOf(gatewayUrl, `127.0.0.${170 + index}`);

function send(path: string, field: string, name: string, svg: string | Buffer, from: number): Promise<Answer> {
  const { body, contentType } = multipart([{ name: field, filename: name, type: 'image/svg+xml', data: svg }]);
  return call(target(from), { method: 'POST', path, headers: { 'Content-Type': contentType }, body }, 120_000);
}

describe('SVG costs, through the gateway', () => {
  jest.setTimeout(180_000);

  it('refuses a 1.6 kB SVG of nested <use> (10^8 instances) at the moderation test with a 422', async () => {
    const bomb = nestedUseSvg(8);
    expect(bomb.length).toBeLessThan(2500);
    const started = performance.now();
    const answer = await send('/api/test/moderate', 'image', 'bomb.svg', bomb, 0);
    process.stdout.write(`the 10^8 <use> bomb was refused in ${Math.round(performance.now() - started)} ms\n`);
    expect(answer.status).toBe(422);
    expect(jsonMessage(answer)).toMatch(/^"bomb\.svg" is too complex to draw safely: .*elements to draw once references are expanded/);
  });

  it('refuses a 1 kB logo of 10^5 <use> instances at poll creation with a 422', async () => {
    const logo = nestedUseSvg(5);
    expect(logo.length).toBeLessThan(1500);
    const answer = await send('/api/sessions', 'logos', 'logo.svg', logo, 1);
    expect(answer.status).toBe(422);
    expect(jsonMessage(answer)).toMatch(/^"logo\.svg" is too complex to draw safely/);
  });

  it('refuses <use> elements that draw each other', async () => {
    const answer = await send('/api/sessions', 'logos', 'cycle.svg', useCycleSvg(), 2);
    expect(answer.status).toBe(422);
    expect(jsonMessage(answer)).toMatch(/a reference that draws itself/);
  });

  it('refuses a <set> of xl:href, the prefix xl bound to the XLink namespace', async () => {
    const answer = await send('/api/sessions', 'logos', 'link.svg', xlinkPrefixAnimation(), 3);
    expect(answer.status).toBe(422);
    expect(jsonMessage(answer)).toMatch(/an animation of xl:href/);
  });
});
