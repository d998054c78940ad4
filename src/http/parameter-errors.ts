// One wording for invalid parameters, whether Fastify's validator (query, body) or the upload reader found them.
import { type AppError, errors } from '../errors.ts';
import { SAFE_INTEGER_KEYWORD } from './input-guards.ts';

/** A validation issue as Ajv and TypeBox's Value.Errors both describe it. */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: unknown;
  message?: string;
}

/** The 400 for the first issue, naming the parameter ("Field" for a JSON body, "Parameter" otherwise). */
export function parameterError(issue: ValidationIssue, where: 'body' | 'parameters'): AppError {
  const noun = where === 'body' ? 'Field' : 'Parameter';
  const params = (issue.params ?? {}) as Record<string, unknown>;
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    // Ajv names one missing property, TypeBox a list of them.
    const missing = params.missingProperty ?? (params.requiredProperties as string[] | undefined)?.[0];
    const name = [path, missing].filter(Boolean).join('.');
    return where === 'body'
      ? errors.badParameter(`${noun} "${name}" is required`)
      : errors.missingParameter(name);
  }
  if (issue.keyword === SAFE_INTEGER_KEYWORD) {
    return errors.badParameter(`${noun} "${path}" must be an integer from -2^53 to 2^53`);
  }
  if (issue.keyword === 'additionalProperties') {
    return errors.badParameter(`${noun} "${params.additionalProperty}" is not allowed`);
  }
  if (!path)
    return errors.badParameter(`${where === 'body' ? 'Body' : 'Query'} ${issue.message ?? 'is invalid'}`);
  return errors.badParameter(`${noun} "${path}" ${issue.message ?? 'is invalid'}`);
}
