import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A page of a PDF rendered to RGB pixels by poppler's pdftoppm (scale: pixels per PDF point). */
export interface PageImage {
  width: number;
  height: number;
  scale: number;
  rgb: Buffer;
}

/** A word of a page with its box in PDF points (origin top left), as pdftotext -bbox finds it. */
export interface Word {
  page: number;
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

function withFile<T>(pdf: Buffer, use: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'dictum-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return use(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Renders one page (1-based) at `dpi` to pixels. */
export function renderPage(pdf: Buffer, page = 1, dpi = 72): PageImage {
  return withFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, path.join(dir, 'page')]);
    const ppm = readFileSync(path.join(dir, 'page.ppm'));
    // P6 header: magic, width, height, maximum value, each followed by whitespace.
    const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 64).toString('latin1'));
    if (!header) throw new Error('pdftoppm wrote no P6 image');
    const width = Number(header[1]);
    const height = Number(header[2]);
    return { width, height, scale: dpi / 72, rgb: ppm.subarray(header[0].length, header[0].length + width * height * 3) };
  });
}

/** Writes one page as a PNG file (for the documentation). */
export function savePagePng(pdf: Buffer, target: string, page = 1, dpi = 100): void {
  withFile(pdf, (file, dir) => {
    execFileSync('pdftoppm', ['-png', '-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', file, path.join(dir, 'page')]);
    writeFileSync(target, readFileSync(path.join(dir, 'page.png')));
  });
}

/** The share of pixels in a box (PDF points) that are not white, and of those that are clearly green. */
export function inkIn(img: PageImage, box: { x: number; y: number; w: number; h: number }): { ink: number; green: number } {
  let ink = 0;
  let green = 0;
  let all = 0;
  const x0 = Math.max(0, Math.floor(box.x * img.scale));
  const y0 = Math.max(0, Math.floor(box.y * img.scale));
  const x1 = Math.min(img.width, Math.ceil((box.x + box.w) * img.scale));
  const y1 = Math.min(img.height, Math.ceil((box.y + box.h) * img.scale));
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const i = (y * img.width + x) * 3;
      const [r, g, b] = [img.rgb[i]!, img.rgb[i + 1]!, img.rgb[i + 2]!];
      all++;
      if (r < 235 || g < 235 || b < 235) ink++;
      if (g > r + 40 && g > b + 40) green++;
    }
  }
  return { ink: all ? ink / all : 0, green: all ? green / all : 0 };
}

const unescape = (s: string): string => s.replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");

/** The words of every page with their boxes (pdftotext -bbox). */
export function pdfWords(pdf: Buffer): Word[] {
  return withFile(pdf, (file) => {
    const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8' });
    const words: Word[] = [];
    let page = 0;
    for (const m of html.matchAll(/<page [^>]*>|<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)) {
      if (m[0].startsWith('<page')) {
        page++;
        continue;
      }
      words.push({ page, text: unescape(m[5]!), xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) });
    }
    return words;
  });
}

/** The words of a page that spell `phrase` in sequence on one line: their joint box, or null. */
export function findPhrase(words: Word[], phrase: string, page = 1): Word | null {
  const parts = phrase.split(/\s+/);
  const on = words.filter((w) => w.page === page);
  for (let i = 0; i + parts.length <= on.length; i++) {
    const run = on.slice(i, i + parts.length);
    if (run.every((w, k) => w.text === parts[k]) && run.every((w) => Math.abs(w.yMin - run[0]!.yMin) < 2)) {
      return { page, text: phrase, xMin: Math.min(...run.map((w) => w.xMin)), yMin: Math.min(...run.map((w) => w.yMin)), xMax: Math.max(...run.map((w) => w.xMax)), yMax: Math.max(...run.map((w) => w.yMax)) };
    }
  }
  return null;
}

/** The plain text of a PDF (pdftotext, reading order kept by layout). */
export function pdfPlainText(pdf: Buffer): string {
  return withFile(pdf, (file) => execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
}
