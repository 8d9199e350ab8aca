import { raw } from 'bwip-js';

/**
 * The Code 128 symbol of `text` as bwip-js encodes it (start code, code-set changes such as
 * set C for digit runs, modulo-103 check and stop): dark bars as [x, width] in modules, and the
 * symbol's width in modules (quiet zones not included).
 */
export function code128Bars(text: string): { bars: [number, number][]; modules: number } {
  const [symbol] = raw('code128', text, {}) as { sbs: number[] }[];
  const bars: [number, number][] = [];
  let x = 0;
  symbol.sbs.forEach((width, i) => {
    if (i % 2 === 0) bars.push([x, width]);
    x += width;
  });
  return { bars, modules: x };
}
