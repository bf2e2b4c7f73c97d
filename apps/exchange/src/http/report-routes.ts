/**
 * Reports (issue #12, "Reporting"): `GET /v1/reports/trades?date=` as JSON, or CSV when asked
 * (`format=csv`, or an Accept header that prefers text/csv). The caller's own report; another
 * account's with the `admin` scope as well as `trade`.
 */
import type { FastifyPluginCallback, FastifyRequest } from 'fastify';
import { kitErrors, problemResponse } from '@tessera/kit';
import { TRADE_REPORT_COLUMNS } from '../core/trade-report.ts';
import type { ExchangeService } from '../service.ts';
import { toCsv } from './csv.ts';
import { tradeReportQuerySchema, tradeReportReplySchema } from './schemas/trade-report.ts';
import { holdReadsUntilDurable } from './durable-reads.ts';

export interface ReportRoutesOptions {
  readonly service: ExchangeService;
  /** Requests per minute per account. */
  readonly limitPerMinute: number;
}

interface TradeReportQuery {
  readonly date: string;
  readonly account?: string;
  readonly format?: 'json' | 'csv';
}

const CSV = 'text/csv';

function wantsCsv(request: FastifyRequest<{ Querystring: TradeReportQuery }>): boolean {
  if (request.query.format !== undefined) return request.query.format === 'csv';
  const accept = request.headers.accept ?? '';
  // Only an explicit preference: a browser's `*/*` keeps JSON.
  return accept.includes(CSV) && !accept.startsWith('application/json');
}

export const reportRoutes: FastifyPluginCallback<ReportRoutesOptions> = (app, options, done) => {
  holdReadsUntilDurable(app, options.service);
  app.get<{ Querystring: TradeReportQuery }>(
    '/v1/reports/trades',
    {
      schema: {
        tags: ['exchange: reports'],
        summary:
          'Your executions of a trading day with the report fields (client id, prices, order type, executed and remaining quantity), as JSON or CSV',
        querystring: tradeReportQuerySchema,
        response: {
          200: {
            content: {
              'application/json': { schema: tradeReportReplySchema },
              [CSV]: {
                schema: { type: 'string', description: 'a header line, then one line per execution' },
              },
            },
          },
          403: problemResponse,
          503: problemResponse,
        },
      },
      config: { auth: { scope: 'trade' }, rateLimit: { max: options.limitPerMinute, timeWindow: 60_000 } },
    },
    (request, reply) => {
      const principal = request.principal!;
      const account = request.query.account ?? principal.sub;
      if (account !== principal.sub && !principal.scopes.has('admin')) {
        throw kitErrors.KIT_FORBIDDEN('another account\'s report needs the "admin" scope', {
          required_scope: 'admin',
        });
      }
      const data = options.service.tradeReport(account, request.query.date);
      if (!wantsCsv(request)) return reply.send({ date: request.query.date, account, data });
      return reply
        .type(`${CSV}; charset=utf-8`)
        .header('content-disposition', `attachment; filename="trades-${request.query.date}.csv"`)
        .serializer((payload) => payload as string)
        .send(toCsv(data, TRADE_REPORT_COLUMNS));
    },
  );
  done();
};
