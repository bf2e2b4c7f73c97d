/**
 * Every kind the operator serves. MailStore and TradingSymbol (the latter with a `scale`
 * subresource) join this list when their services come.
 */
import type { TObject } from '@sinclair/typebox';
import { leaderboardKind } from '../leaderboard/types.ts';
import type { KindDefinition } from './define.ts';

export const KINDS: readonly KindDefinition<TObject, TObject>[] = [leaderboardKind];
