import type { FastifyInstance, FastifySchema } from 'fastify';
import { Type } from '@sinclair/typebox';
import { Open, ref } from '../openapi/answer-schemas.js';
import { documented } from '../openapi/route-schema.js';
import type { AuthContext } from '../auth/context.js';
import { createWriteContext } from '../records/write/write-context.js';
import type { Services } from '../services.js';
import { answerActivity, listActivities, userOfPath, type Answer } from './activities.js';
import { workflowProcessor } from './workflow-processor.js';
import { bodyObject, messageOf } from './workflow-rules.js';

const workflowNodes = Type.Object({ 'row-count': Type.Integer(), nodes: Type.Array(ref('DictionaryRow')) });

type Kind = Answer['kind'];
const message = Type.Optional(Type.String());
const workflowAnswer = Open({ id: Type.Optional(Type.Integer()), msg: Type.Optional(Type.String()) }, 'The node after the action');
/** The answers to a node, each with what the document says of it. */
const KINDS: Record<Kind, FastifySchema> = {
  approve: { summary: 'Approve an approval node', body: documented(Open({ message })), answer: workflowAnswer, example: { message: 'Approved' } },
  reject: { summary: 'Reject an approval node', body: documented(Open({ message })), answer: workflowAnswer, example: { message: 'Too expensive' } },
  forward: { summary: 'Forward an approval node to another user (userTo)', body: documented(Open({ userTo: Type.Union([Type.Integer(), Type.String()]), message })), answer: workflowAnswer, example: { userTo: 101, message: 'Please decide' } },
  acknowledge: { summary: 'Acknowledge a notification node', body: documented(Open({ message })), answer: workflowAnswer, example: { message: 'Seen' } },
  setuserchoice: { summary: 'Set the value of a user choice node (value)', body: documented(Open({ value: Type.Union([Type.String(), Type.Number(), Type.Boolean()]), message })), answer: workflowAnswer, example: { value: 'Y' } },
};

function answerOf(kind: Kind, body: unknown): Answer {
  const message = messageOf(body);
  const b = bodyObject(body);
  if (kind === 'forward') return { kind, userTo: b.userTo, message };
  if (kind === 'setuserchoice') return { kind, value: b.value, message };
  return { kind, message };
}

/**
 * /api/v1/workflow: the suspended nodes (activities) of the current or a given user, and the
 * answers to them. Each answer is one transaction: the activity, the document and the workflow's
 * next nodes change together or not at all. Also starts the instance's Workflow Processor.
 */
export async function workflowRoutes(app: FastifyInstance, s: Services): Promise<void> {
  const list = async (auth: AuthContext, userId: number) => {
    const nodes = await s.db.connection((q) => listActivities(q, s.dictionary.current, auth, userId));
    return { 'row-count': nodes.length, nodes };
  };

  app.get('/api/v1/workflow', { schema: { summary: "The caller's suspended workflow nodes", answer: workflowNodes, example: { 'row-count': 0, nodes: [] } } }, async (req) => list(req.auth!, req.auth!.userId));

  app.get<{ Params: { userid: string } }>('/api/v1/workflow/:userid', { schema: { summary: "A user's suspended workflow nodes", answer: workflowNodes, example: { 'row-count': 0, nodes: [] } } }, async (req) => {
    const auth = req.auth!;
    const userId = await s.db.connection((q) => userOfPath(q, auth, req.params.userid));
    return list(auth, userId);
  });

  for (const [kind, schema] of Object.entries(KINDS) as [Kind, FastifySchema][]) {
    app.put<{ Params: { nodeid: string }; Body: unknown }>(`/api/v1/workflow/${kind}/:nodeid`, { schema }, async (req) => {
      const auth = req.auth!;
      const { summary, history } = await s.db.tx((tx) => answerActivity(createWriteContext(s.dictionary.current, auth, tx, s.events), req.params.nodeid, answerOf(kind, req.body)));
      return { msg: 'Updated', ...(summary ? { summary } : {}), 'history-records': history };
    });
  }

  // The Workflow Processor server of the instance: it continues the waits that are over.
  const processor = workflowProcessor(s);
  s.servers?.add(processor);
  await processor.start();
  app.addHook('onClose', async () => processor.stop());
}
