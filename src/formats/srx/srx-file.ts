// SRX 2.0 files (LISA's Segmentation Rules eXchange): a project's segmentation rules read from one and
// written as one. Read with the streaming XML reader, which refuses DTD entity declarations (no external
// entity is ever fetched, no entity expands); every problem names its line and column.
import { FileLimitError, FormatError } from '../../errors.ts';
import { type SrxRule, type SrxRules, srxPatternProblem, srxProblems } from '../../text/srx.ts';
import { readXml, type XmlTag } from '../../xml/xml-reader.ts';
import { endTag, startTag, textElement } from '../../xml/xml-writer.ts';

export const SRX_NAMESPACE = 'http://www.lisa.org/srx20';
/** An SRX file larger than this is refused: thousands of rules fit in a fraction of it. */
export const MAX_SRX_BYTES = 1024 * 1024;

const localName = (tag: { name: string }) => tag.name.slice(tag.name.indexOf(':') + 1);

/** The rules of an SRX 2.0 file. Throws FormatError (XmlError, with line and column) when it is not one. */
export async function readSrx(input: AsyncIterable<Uint8Array>): Promise<SrxRules> {
  const rules: SrxRules = { cascade: false, languageRules: [], mapRules: [] };
  let sawRoot = false;
  const records = readXml<never>(bounded(input), (ctx) => {
    const path: string[] = [];
    let rule: SrxRule | null = null;
    let text: string | null = null;
    const attr = (tag: XmlTag, name: string) => {
      const value = tag.attributes[name];
      if (value === undefined || value === '') ctx.fail('Invalid SRX', `<${tag.name}> has no ${name}`);
      return value;
    };
    return {
      openTag(tag) {
        const name = localName(tag);
        const parent = path[path.length - 1];
        path.push(name);
        if (path.length === 1) {
          if (name !== 'srx') ctx.fail('Not an SRX file', `the root is <${tag.name}>, not <srx>`);
          const version = tag.attributes.version;
          if (version !== '2.0') {
            ctx.fail('Unsupported SRX', `version ${JSON.stringify(version ?? '')}; SRX 2.0 is read`);
          }
          sawRoot = true;
        } else if (name === 'header' && parent === 'srx') {
          rules.cascade = (tag.attributes.cascade ?? 'no').toLowerCase() === 'yes';
        } else if (name === 'languagerule' && parent === 'languagerules') {
          rules.languageRules.push({ name: attr(tag, 'languagerulename'), rules: [] });
        } else if (name === 'rule' && parent === 'languagerule') {
          const value = (tag.attributes.break ?? 'yes').toLowerCase();
          if (value !== 'yes' && value !== 'no') {
            ctx.fail('Invalid SRX', `break="${tag.attributes.break}"; it is "yes" or "no"`);
          }
          rule = { break: value === 'yes', before: '', after: '' };
          rules.languageRules[rules.languageRules.length - 1].rules.push(rule);
        } else if ((name === 'beforebreak' || name === 'afterbreak') && parent === 'rule') {
          text = '';
        } else if (name === 'languagemap' && parent === 'maprules') {
          rules.mapRules.push({
            pattern: attr(tag, 'languagepattern'),
            name: attr(tag, 'languagerulename'),
          });
          const map = rules.mapRules[rules.mapRules.length - 1];
          const problem = srxPatternProblem(map.pattern);
          if (problem) ctx.fail('Invalid SRX', `languagepattern ${problem}`);
          // The body holds the language rules before the maps (SRX 2.0's order).
          if (!rules.languageRules.some((l) => l.name === map.name)) {
            ctx.fail('Invalid SRX', `languagerulename "${map.name}" names no languagerule of the file`);
          }
        }
      },
      text(chunk) {
        if (text !== null) text += chunk;
      },
      closeTag(tag) {
        const name = localName(tag);
        path.pop();
        if ((name === 'beforebreak' || name === 'afterbreak') && rule && text !== null) {
          const problem = srxPatternProblem(text);
          if (problem) ctx.fail('Invalid SRX', `${name} ${problem}`);
          if (name === 'beforebreak') rule.before = text;
          else rule.after = text;
          text = null;
        } else if (name === 'rule') rule = null;
      },
    };
  });
  for await (const _ of records);
  if (!sawRoot) throw new FormatError('Not an SRX file: it is empty');
  const problems = srxProblems(rules);
  if (problems.length > 0) throw new FormatError(`Invalid SRX: ${problems.join('; ')}`);
  return rules;
}

async function* bounded(input: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let bytes = 0;
  for await (const chunk of input) {
    bytes += chunk.length;
    if (bytes > MAX_SRX_BYTES) throw new FileLimitError(`an SRX file is at most ${MAX_SRX_BYTES} bytes`);
    yield chunk;
  }
}

/** The rules as an SRX 2.0 file (UTF-8). */
export function writeSrx(rules: SrxRules): string {
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    startTag('srx', { version: '2.0', xmlns: SRX_NAMESPACE }),
    `  ${startTag('header', { segmentsubflows: 'yes', cascade: rules.cascade ? 'yes' : 'no' })}`,
    `    ${startTag('formathandle', { type: 'start', include: 'no' }, true)}`,
    `    ${startTag('formathandle', { type: 'end', include: 'yes' }, true)}`,
    `    ${startTag('formathandle', { type: 'isolated', include: 'yes' }, true)}`,
    `  ${endTag('header')}`,
    `  ${startTag('body')}`,
    `    ${startTag('languagerules')}`,
  ];
  for (const language of rules.languageRules) {
    lines.push(`      ${startTag('languagerule', { languagerulename: language.name })}`);
    for (const rule of language.rules) {
      lines.push(
        `        ${startTag('rule', { break: rule.break ? 'yes' : 'no' })}` +
          textElement('beforebreak', {}, rule.before) +
          textElement('afterbreak', {}, rule.after) +
          endTag('rule'),
      );
    }
    lines.push(`      ${endTag('languagerule')}`);
  }
  lines.push(`    ${endTag('languagerules')}`, `    ${startTag('maprules')}`);
  for (const map of rules.mapRules) {
    lines.push(
      `      ${startTag('languagemap', { languagepattern: map.pattern, languagerulename: map.name }, true)}`,
    );
  }
  lines.push(`    ${endTag('maprules')}`, `  ${endTag('body')}`, endTag('srx'), '');
  return lines.join('\n');
}
