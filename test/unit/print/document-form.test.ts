import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { renderDocumentForm } from '../../../src/print/document-print.js';
import { findPhrase, pdfWords } from '../../helpers/pdf-render.js';

describe('a form without letterhead (title lines, lines and footer only)', () => {
  it('prints its title lines, its lines with two-decimal grouped amounts and its footer', async () => {
    const file = await renderDocumentForm(
      {
        title: 'Movement 1000',
        headerLines: ['Movement Date: 2026-01-05', 'Warehouse: HQ'],
        columns: [
          { label: 'Product', type: 'text' },
          { label: 'Quantity', type: 'quantity' },
          { label: 'Amount', type: 'amount' },
        ],
        cells: [['Oak Tree', 1500, 12345.6]],
        footer: ['Lines: 1'],
      },
      null,
    );
    assert.equal(file.extension, 'pdf');
    const words = pdfWords(file.data);
    for (const phrase of ['Movement 1000', 'Movement Date: 2026-01-05', 'Warehouse: HQ', 'Oak Tree', '1,500', '12,345.60', 'Lines: 1', 'Page 1 of 1']) assert.ok(findPhrase(words, phrase), phrase);
    const title = findPhrase(words, 'Movement 1000')!;
    const first = findPhrase(words, 'Movement Date: 2026-01-05')!;
    assert.ok(first.yMin > title.yMin, 'the title lines under the title');
  });
});
