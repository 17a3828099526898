// `npm run ledger:check`: checks the ledger's invariants (and the futures invariants) on the configured database.
// Exit code 0: sound; 1: violations (listed); 2: nothing to check, or the check could not run.
import { ConfigError } from '../src/config.ts';
import { checkFuturesInvariants } from '../src/modules/futures/invariants.ts';
import { LEDGER_CHECK_EXIT, runLedgerCheck } from '../src/modules/ledger/check-command.ts';

try {
  // The ledger imports no feature module: the futures invariants are composed here.
  process.exitCode = await runLedgerCheck(process.env, (line) => process.stdout.write(`${line}\n`), [
    checkFuturesInvariants,
  ]);
} catch (error) {
  const message = error instanceof ConfigError ? error.message : `ledger:check failed: ${String(error)}`;
  process.stderr.write(`${message}\n`);
  process.exitCode = LEDGER_CHECK_EXIT.cannotCheck;
}
