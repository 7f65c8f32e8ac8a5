// Interop: the TypeScript SDK 1.32's task API (the experimental task
// utility of MCP 2025-11-25, client.experimental.tasks) against the task
// tools of examples/conformance, over stdio and over Streamable HTTP with
// bearer tokens (tasks/list lists each caller's own tasks):
//   - initialize declares capabilities.tasks; tools/list each tool's
//     execution.taskSupport, which the client caches;
//   - callToolStream makes slow_compute a task and ends with its result;
//   - failing_job's declared failure is a failed task whose tasks/result is
//     the same error result a synchronous call gives;
//   - tasks/cancel answers the cancelled task, and -32602 once it ended;
//   - a required tool called without a task, or a forbidden one with it,
//     is -32601;
//   - a task's question reaches the client's elicitation handler.
//
//     MCPCORE_CONFORMANCE_BIN=$PWD/../bin/conformance node --test tasks-legacy.test.js
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { createHmac } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema, McpError, TaskStatusNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const bin = process.env.MCPCORE_CONFORMANCE_BIN;
const skip = bin ? false : 'MCPCORE_CONFORMANCE_BIN does not name the built examples/conformance binary';

const secret = 'interop-secret-of-at-least-32-characters';
const b64 = (v) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
function hs256(claims) {
  const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}
const token = (sub) => hs256({ sub, exp: Math.floor(Date.now() / 1000) + 600 });

// heard records the notifications/tasks/status a client receives; until
// waits for one of task id with status.
function heard(client) {
  const seen = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => { seen.push(n.params); });
  return {
    async until(id, status) {
      for (let i = 0; i < 100; i++) {
        if (seen.some((t) => t.taskId === id && t.status === status)) return;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.fail(`no notifications/tasks/status ${status} for ${id}; heard ${JSON.stringify(seen)}`);
    },
  };
}

// statusesHeard checks that the client heard the end of each task of
// exercise without polling for it.
async function statusesHeard(notes, [done, failed, cancelled]) {
  await notes.until(done, 'completed');
  await notes.until(failed, 'failed');
  await notes.until(cancelled, 'cancelled');
}

// drain collects a callToolStream's messages.
async function drain(stream) {
  const messages = [];
  for await (const m of stream) messages.push(m);
  return messages;
}

// exercise runs the checks every transport shares on a connected client.
async function exercise(client) {
  assert.equal(client.getServerCapabilities().tasks?.requests?.tools?.call !== undefined, true, 'capabilities.tasks.requests.tools.call');
  assert.deepEqual(client.getServerCapabilities().tasks.cancel, {});

  const { tools } = await client.listTools();
  const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
  assert.equal(support.slow_compute, 'optional');
  assert.equal(support.failing_job, 'required');
  assert.equal(support.greet, undefined);

  // A task to its result, polled by the SDK.
  const done = await drain(client.experimental.tasks.callToolStream(
    { name: 'slow_compute', arguments: { seconds: 0.3, label: 'legacy' } }, CallToolResultSchema, { task: { ttl: 60000 } }));
  const kinds = done.map((m) => m.type);
  assert.equal(kinds[0], 'taskCreated', kinds.join());
  assert.equal(done[0].task.status, 'working');
  assert.equal(done[0].task.ttl, 60000);
  assert.match(done[0].task.taskId, /^[A-Z2-7]{26}$/);
  const last = done.at(-1);
  assert.equal(last.type, 'result', JSON.stringify(last));
  assert.equal(last.result.content[0].text, 'computed legacy');
  assert.equal(last.result._meta['io.modelcontextprotocol/related-task'].taskId, done[0].task.taskId);

  // A declared failure: failed under this wire, with the synchronous
  // call's error result behind tasks/result.
  const failed = await drain(client.experimental.tasks.callToolStream({ name: 'failing_job', arguments: {} }));
  assert.equal(failed[0].type, 'taskCreated');
  const id = failed[0].task.taskId;
  assert.equal(failed.at(-1).type, 'error');
  const task = await client.experimental.tasks.getTask(id);
  assert.equal(task.status, 'failed');
  assert.match(task.statusMessage, /^Error: The job failed\./);
  const payload = await client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
  assert.equal(payload.isError, true);
  assert.match(payload.content[0].text, /^Error: The job failed\.\n\nRecovery: /);
  assert.equal(payload.structuredContent.error.data.reason, 'job_failed');

  // Cancel: the task, cancelled; a second cancel is -32602.
  const stream = client.experimental.tasks.callToolStream({ name: 'slow_compute', arguments: { seconds: 30 } });
  const first = (await stream.next()).value;
  assert.equal(first.type, 'taskCreated');
  const cancelled = await client.experimental.tasks.cancelTask(first.task.taskId);
  assert.equal(cancelled.status, 'cancelled');
  assert.equal(cancelled.taskId, first.task.taskId);
  const end = (await drain(stream)).at(-1);
  assert.equal(end.type, 'error');
  await assert.rejects(client.experimental.tasks.cancelTask(first.task.taskId),
    (e) => e instanceof McpError && e.code === -32602 && /already in terminal status 'cancelled'/.test(e.message));

  // A required tool without a task, a forbidden one with it: -32601.
  await assert.rejects(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema),
    (e) => e instanceof McpError && e.code === -32601);
  await assert.rejects(client.request({ method: 'tools/call', params: { name: 'greet', arguments: { name: 'x' }, task: {} } }, CallToolResultSchema),
    (e) => e instanceof McpError && e.code === -32601);
  return [done[0].task.taskId, id, first.task.taskId];
}

describe('the TypeScript SDK 1.32 task API over stdio', { skip }, () => {
  let client;
  let asked;
  let notes;
  before(async () => {
    client = new Client({ name: 'interop-tasks-legacy', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    notes = heard(client);
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked = req.params;
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StdioClientTransport({ command: bin, stderr: 'ignore' }));
  });
  after(() => client?.close());

  test('tasks of 2025-11-25, end to end', async () => {
    await statusesHeard(notes, await exercise(client));
    // Without authentication there is nobody to list for.
    assert.equal(client.getServerCapabilities().tasks.list, undefined);
    await assert.rejects(client.experimental.tasks.listTasks(), (e) => e instanceof McpError && e.code === -32601);
  });

  test("a task's question is asked within the session (elicitation/create)", async () => {
    const done = await drain(client.experimental.tasks.callToolStream({ name: 'confirm_delete', arguments: { filename: '/tmp/x' } }));
    assert.equal(done[0].type, 'taskCreated');
    assert.equal(asked?.message, 'Delete /tmp/x?');
    assert.equal(done.at(-1).type, 'result', JSON.stringify(done.at(-1)));
    assert.equal(done.at(-1).result.content[0].text, 'deleted /tmp/x');
  });
});

describe('the TypeScript SDK 1.32 task API over HTTP, with bearer tokens', { skip }, () => {
  let server;
  let url;
  before(async () => {
    server = spawn(bin, [], {
      env: { ...process.env, MCP_TRANSPORT_TYPE: 'http', MCP_HTTP_PORT: '0', MCP_AUTH_MODE: 'jwt', MCP_AUTH_SECRET_KEY: secret },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let log = '';
    url = await new Promise((resolve, reject) => {
      createInterface({ input: server.stderr }).on('line', (line) => {
        log += line + '\n';
        const m = line.match(/Connect an MCP client to (http:\/\/\S+\/mcp)/);
        if (m) resolve(m[1]);
      });
      server.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${log}`)));
    });
  });
  after(() => server?.kill('SIGTERM'));

  async function connect(sub) {
    const client = new Client({ name: 'interop-tasks-legacy', version: '1.0.0' });
    client.notes = heard(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token(sub)}` } } }));
    return client;
  }

  test('tasks of 2025-11-25, and tasks/list per caller', async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    try {
      const mine = await exercise(alice);
      await statusesHeard(alice.notes, mine);
      assert.deepEqual(alice.getServerCapabilities().tasks.list, {});
      const listed = (await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
      assert.deepEqual(listed, mine);
      const statuses = (await alice.experimental.tasks.listTasks()).tasks.map((t) => t.status);
      assert.deepEqual(statuses, ['completed', 'failed', 'cancelled']);
      assert.deepEqual((await bob.experimental.tasks.listTasks()).tasks, []);
      await assert.rejects(bob.experimental.tasks.getTask(mine[0]), (e) => e instanceof McpError && e.code === -32602);
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
