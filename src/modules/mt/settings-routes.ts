// An organization's machine translation settings (extension; admins only, src/http/policy.ts): its engines
// under /v2/translate/engines, their order and test, and the monthly limit.
import { principalOf } from '../../http/principal.ts';
import { Deleted } from '../../http/schemas.ts';
import type { App } from '../../http/types.ts';
import {
  CreateEngineBody,
  Engine,
  EngineOrderBody,
  EngineParams,
  EnginesAnswer,
  EngineTestAnswer,
  LimitBody,
  UpdateEngineBody,
} from './settings-schemas.ts';
import * as service from './settings-service.ts';

export async function mtSettingsRoutes(app: App, deps: service.MtSettingsDeps) {
  const tags = ['translate'];

  app.get(
    '/v2/translate/engines',
    {
      schema: {
        summary:
          "The organization's machine translation engines in order, the operator's defaults, the kinds that may be added, limits and this month's usage (extension)",
        tags,
        response: { 200: EnginesAnswer },
      },
    },
    async (request) => service.listEngines(deps, principalOf(request)),
  );

  app.post(
    '/v2/translate/engines',
    {
      schema: {
        summary: 'Add a machine translation engine, asked after the ones there are (extension)',
        tags,
        body: CreateEngineBody,
        response: { 201: Engine },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createEngine(deps, principalOf(request), request.body)),
  );

  app.put(
    '/v2/translate/engines/order',
    {
      schema: {
        summary: "Put the organization's engines in the order they are asked (extension)",
        tags,
        body: EngineOrderBody,
        response: { 200: EnginesAnswer },
      },
    },
    async (request) => service.orderEngines(deps, principalOf(request), request.body.ids),
  );

  app.put(
    '/v2/translate/engines/:engineId',
    {
      schema: {
        summary: "Change an engine's label, settings, limit, or whether it is asked (extension)",
        tags,
        params: EngineParams,
        body: UpdateEngineBody,
        response: { 200: Engine },
      },
    },
    async (request) =>
      service.updateEngine(deps, principalOf(request), request.params.engineId, request.body),
  );

  app.delete(
    '/v2/translate/engines/:engineId',
    {
      schema: {
        summary: 'Remove an engine and its stored secrets (extension)',
        tags,
        params: EngineParams,
        response: { 200: Deleted },
      },
    },
    async (request) => service.deleteEngine(deps, principalOf(request), request.params.engineId),
  );

  app.post(
    '/v2/translate/engines/:engineId/test',
    {
      schema: {
        summary: 'Ask an engine for its pairs and translate a short sample with it (extension)',
        tags,
        params: EngineParams,
        response: { 200: EngineTestAnswer },
      },
    },
    async (request) => service.testEngine(deps, principalOf(request), request.params.engineId),
  );

  app.put(
    '/v2/translate/limit',
    {
      schema: {
        summary:
          "Set the organization's monthly limit on characters sent to machine translation, null for none (extension)",
        tags,
        body: LimitBody,
        response: { 200: EnginesAnswer.properties.limit },
      },
    },
    async (request) => service.setLimit(deps, principalOf(request), request.body.monthly_limit),
  );
}
