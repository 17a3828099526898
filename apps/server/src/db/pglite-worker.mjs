// The embedded database in a worker thread: PGlite's WebAssembly PostgreSQL runs here, off the
// event loop that serves HTTP and sockets. The main thread sends one message per call
// (query, exec, begin, commit, rollback, close) and gets one answer with the same id.
// Plain JavaScript, so the worker starts the same way under tsx, vitest and node.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const port = parentPort;
if (!port) throw new Error('pglite-worker.mjs runs as a worker thread');

/** @type {PGlite} */
let db;
/** Open transactions by id: their connection and how to end them. */
const transactions = new Map();

/** An error as plain data: PostgreSQL's fields (code, constraint, detail…) survive the copy. */
function plainError(error) {
  if (!(error instanceof Error)) return { message: String(error) };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { ...fields, name: error.name, message: error.message };
}

const answer = (id, result) => port.postMessage({ id, result });
const refuse = (id, error) => port.postMessage({ id, error: plainError(error) });

/** Opens a transaction that stays open until its commit or rollback message arrives. */
function begin(id) {
  let end;
  const ended = new Promise((resolve) => {
    end = resolve;
  });
  const done = db
    .transaction(async (tx) => {
      transactions.set(id, { tx, end });
      answer(id, id);
      const outcome = await ended;
      if (outcome === 'rollback') await tx.rollback();
    })
    .catch((error) => error);
  transactions.set(id, { tx: null, end, done });
  return done;
}

async function finish(id, txId, outcome) {
  const open = transactions.get(txId);
  if (!open) return refuse(id, new Error('no such transaction'));
  open.end(outcome);
  const failure = await open.done;
  transactions.delete(txId);
  if (failure instanceof Error && outcome === 'commit') return refuse(id, failure);
  return answer(id, null);
}

async function run(message) {
  const { id, op, sql, params, tx } = message;
  const target = tx === undefined ? db : transactions.get(tx)?.tx;
  if (!target) throw new Error('no such transaction');
  if (op === 'query') {
    const result = await target.query(sql, params);
    return answer(id, { rows: result.rows, affectedRows: result.affectedRows ?? 0 });
  }
  if (op === 'exec') {
    await target.exec(sql);
    return answer(id, null);
  }
  throw new Error(`unknown operation ${op}`);
}

port.on('message', (message) => {
  const { id, op } = message;
  if (op === 'begin') return void begin(id);
  if (op === 'commit' || op === 'rollback') return void finish(id, message.tx, op);
  if (op === 'close') {
    return void db.close().then(
      () => answer(id, null),
      (error) => refuse(id, error),
    );
  }
  run(message).catch((error) => refuse(id, error));
});

try {
  db = await PGlite.create(workerData?.dataDir);
  port.postMessage({ ready: true });
} catch (error) {
  port.postMessage({ ready: false, error: plainError(error) });
}
