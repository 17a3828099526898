/**
 * The command index and its search (spec §9), loaded when the top-bar search is first used: the
 * shell does not carry them (see use-command-search.ts).
 */
export { commandIndex, searchCommands } from '@platform/contracts';
