import type { Correction } from '../apply-corrections.js';

const RESOURCES = 'v1/resource/impl';
const CHART = 'idempiere/idempiere org.adempiere.base/src/org/compiere/model/MChart.java (11ddd3b2)';

const menuEntryColumns = ['Name', 'Description', 'IsSOTrx', 'PredefinedContextVariables', 'EntityType', 'Action', 'AD_Window_ID', 'AD_Workflow_ID', 'AD_Task_ID', 'AD_Process_ID', 'AD_Form_ID', 'AD_InfoWindow_ID'];

/** One kind of chart data: the chart's members and one kind of data point; `id` only in the list of charts. */
function chartVariant(members: Record<string, object>, point: Record<string, object>): object {
  return { type: 'object', properties: { id: { type: 'integer' }, ...members, data: { type: 'array', items: { type: 'object', properties: point } } }, 'x-optional': ['id'] };
}
const labelled = {
  name: { type: 'string' },
  domainLabel: { type: 'string' },
  rangeLabel: { type: 'string' },
  displayLegend: { type: 'boolean' },
  chartOrientation: { type: 'string', enum: ['H', 'V'] },
  chartType: { type: 'string' },
};

export const readServicesCorrections: Correction[] = [
  {
    kind: 'schema',
    target: { component: 'Reference' },
    schema: {
      anyOf: [
        {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            uid: { type: 'string', format: 'uuid' },
            Name: { type: 'string' },
            Description: { type: 'string' },
            ValidationType: {
              type: 'object',
              properties: {
                propertyLabel: { type: 'string', enum: ['Validation type'] },
                id: { type: 'string', enum: ['D', 'L', 'T'] },
                identifier: { type: 'string', enum: ['DataType', 'List Validation', 'Table Validation'] },
                'model-name': { type: 'string', enum: ['ad_ref_list'] },
              },
            },
            VFormat: { type: 'string' },
            'model-name': { type: 'string', enum: ['ad_reference'] },
            reflist: { type: 'array', items: { type: 'object', properties: { value: { type: 'string' }, name: { type: 'string' } } } },
          },
          'x-optional': ['uid', 'Description', 'VFormat'],
        },
        { type: 'object', properties: { reftable: { type: 'array', items: { type: 'object' } } } },
      ],
    },
    reason:
      'a list reference answers the reference with its reflist, a table reference only {reftable: [...]}; the document merges both ' +
      '(the reference\'s Description and VFormat are left out when empty)',
    source: `${RESOURCES}/ReferenceResourceImpl.java#L75-L87 (list: the reference and reflist), #L88-L122 (table: json.add("reftable", array) alone)`,
  },
  {
    kind: 'optional',
    target: { component: 'StatusLine' },
    properties: ['message'],
    reason: 'a status line carries its message in the list only with with_messages=true',
    source: `${RESOURCES}/StatusLineResourceImpl.java#L84-L85 (if (includeMsg) addMessageToJsonObject)`,
  },
  {
    kind: 'schema',
    target: { component: 'ChartData' },
    schema: {
      anyOf: [
        chartVariant(labelled, { row: { type: 'string' }, column: { type: 'string' }, value: { type: 'number' } }),
        chartVariant(labelled, { series: { type: 'string' }, x: { type: 'string' }, y: { type: 'number' } }),
        chartVariant({ name: { type: 'string' }, displayLegend: { type: 'boolean' }, chartType: { type: 'string' } }, { key: { type: 'string' }, value: { type: 'number' } }),
      ],
    },
    reason:
      'chart values (value, y) are numbers; the three kinds of data (category, time series, pie) each have their own members, which the ' +
      "document's oneOf without required members cannot tell apart; id is added in the list of charts only",
    source:
      `${CHART}#L155-L176 (category: row, column, value as Number), #L177-L199 (time series: series, x, y as Number), #L200-L213 (pie: key, value as Number); ` +
      `${RESOURCES}/ChartResourceImpl.java#L119 (one chart: getData()) and #L139-L140 (the list adds id)`,
  },
  {
    kind: 'schema',
    target: { component: 'MenuTree' },
    schema: {
      type: 'object',
      properties: { Name: { type: 'string' }, Description: { type: 'string' }, entries: { type: 'array', items: { $ref: '#/$defs/AD_Menu' } } },
      'x-optional': ['Description'],
    },
    reason: "the tree's entries are menu entries (a summary entry holds its own entries), never arrays; the root carries its Name and Description",
    source: `${RESOURCES}/MenuTreeResourceImpl.java#L71-L75 (Name, Description, entries), #L107-L125 (an entry object per node, entries added to summaries)`,
  },
  {
    kind: 'optional',
    target: { component: 'AD_Menu' },
    properties: ['AD_Client_ID', 'AD_Org_ID', 'Created', 'CreatedBy', 'IsActive', 'IsCentrallyMaintained', 'IsReadOnly', 'IsSummary', 'Updated', 'UpdatedBy'],
    reason: `a menu entry is written with the columns ${menuEntryColumns.join(', ')} only`,
    source: `${RESOURCES}/MenuTreeResourceImpl.java#L94-L107 (includedColumns)`,
  },
  {
    kind: 'schema',
    target: { component: 'Process', path: ['properties', 'AD_ReportView_ID', 'properties', 'identifier'] },
    schema: { type: 'string' },
    reason: "a lookup's identifier is the referenced record's display text",
    source: 'json/LookupTypeConverter.java#L155-L157 (ref.addProperty("identifier", display) with a String)',
  },
  {
    kind: 'optional',
    target: { component: 'Window' },
    properties: ['tabs'],
    reason: 'the window list carries the tabs only when $expand asks for them (the single window always does)',
    source: `${RESOURCES}/WindowResourceImpl.java#L133-L139 (tabs added when details name AD_Tab), #L188-L190`,
  },
];
