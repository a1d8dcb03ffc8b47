import type { ReportType } from '../processes/parameters.js';
import { renderCsv } from './render-csv.js';
import { renderHtml } from './render-html.js';
import { renderPdf } from './render-pdf.js';
import { renderXlsx } from './render-xlsx.js';
import type { ReportData } from './report-model.js';

export interface RenderedFile {
  data: Buffer;
  contentType: string;
  extension: string;
}

/** Renders a report in the requested type; PDF by default. XLS and XLSX both give an XLSX workbook. */
export async function renderReport(r: ReportData, type: ReportType | null): Promise<RenderedFile> {
  switch (type ?? 'PDF') {
    case 'HTML':
      return { data: renderHtml(r), contentType: 'text/html', extension: 'html' };
    case 'CSV':
      return { data: await renderCsv(r), contentType: 'text/csv', extension: 'csv' };
    case 'XLS':
    case 'XLSX':
      return { data: await renderXlsx(r), contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx' };
    default:
      return { data: await renderPdf(r), contentType: 'application/pdf', extension: 'pdf' };
  }
}
