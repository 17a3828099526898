// `npm run ledger:check`: checks the ledger's invariants on the configured database.
// Exit code 0: sound; 1: violations (listed); 2: nothing to check, or the check could not run.
import { ConfigError } from '../src/config.ts';
import { LEDGER_CHECK_EXIT, runLedgerCheck } from '../src/modules/ledger/check-command.ts';

try {
  process.exitCode = await runLedgerCheck(process.env, (line) => process.stdout.write(`${line}\n`));
} catch (error) {
  const message = error instanceof ConfigError ? error.message : `ledger:check failed: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = LEDGER_CHECK_EXIT.cannotCheck;
}
