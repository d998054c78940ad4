// What a segment's context says, in words: the filters store it as their format writes it — an HTML element
// (`p`, `dt`, `img[alt]`), a PO plural form (`msgstr[0]`, after a msgctxt), a Markdown block, a DOCX part and
// style, a key path — and the editor shows a translator "Paragraph", "Definition term", "Plural form 1
// (msgstr[0])", keeping the raw value at hand. Pure: the web application imports it through `@server/`.

export interface ContextLabel {
  /** The words shown. */
  label: string;
  /** A key or name shown as it is written beside the words (a key path, a msgctxt), when there is one. */
  detail?: string;
}

const HTML_ELEMENTS: Record<string, string> = {
  p: 'Paragraph',
  li: 'List item',
  dt: 'Definition term',
  dd: 'Definition',
  td: 'Table cell',
  th: 'Table header cell',
  caption: 'Table caption',
  figcaption: 'Figure caption',
  blockquote: 'Quotation',
  pre: 'Preformatted text',
  title: 'Page title',
  button: 'Button',
  label: 'Form label',
  option: 'List option',
  legend: 'Form group title',
  summary: 'Summary',
  address: 'Address',
  body: 'Body text',
  div: 'Block',
  section: 'Section',
  article: 'Article',
  aside: 'Aside',
  header: 'Page header',
  footer: 'Page footer',
  nav: 'Navigation',
  main: 'Main content',
};

const HTML_ATTRIBUTES: Record<string, string> = {
  alt: 'Text alternative',
  title: 'Tooltip',
  placeholder: 'Placeholder text',
  'aria-label': 'Accessible name',
  value: 'Value',
  content: 'Content',
  label: 'Label',
  summary: 'Summary',
};

const DOCX_PARTS: [RegExp, string][] = [
  [/^word\/document\.xml$/, 'Document body'],
  [/^word\/header\d*\.xml$/, 'Page header'],
  [/^word\/footer\d*\.xml$/, 'Page footer'],
  [/^word\/footnotes\.xml$/, 'Footnote'],
  [/^word\/endnotes\.xml$/, 'Endnote'],
];

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

function html(context: string): ContextLabel {
  if (context === 'meta[name=description]') return { label: 'Page description' };
  const heading = /^h([1-6])$/.exec(context);
  if (heading) return { label: `Heading ${heading[1]}` };
  const attribute = /^([a-z][\w-]*)\[([\w-]+)\]$/.exec(context);
  if (attribute) {
    const [, element, name] = attribute;
    const what = HTML_ATTRIBUTES[name] ?? `Attribute ${name}`;
    return {
      label: `${what} of ${element === 'img' ? 'an image' : element === 'a' ? 'a link' : `<${element}>`}`,
    };
  }
  return { label: HTML_ELEMENTS[context] ?? `Element <${context}>` };
}

function po(context: string): ContextLabel {
  const plural = /(?:^| )msgstr\[(\d+)\]$/.exec(context);
  const msgctxt = plural ? context.slice(0, plural.index).trim() : context;
  const form = plural ? `Plural form ${Number(plural[1]) + 1} (msgstr[${plural[1]}])` : '';
  if (!msgctxt) return { label: form };
  return { label: form ? `${form}, message context` : 'Message context', detail: msgctxt };
}

function docx(context: string): ContextLabel {
  const styled = /^(.*) \((.+)\)$/.exec(context);
  const part = styled ? styled[1] : context;
  const name = DOCX_PARTS.find(([re]) => re.test(part))?.[1] ?? part;
  return styled ? { label: `${name}, style ${styled[2]}` } : { label: name };
}

/** A segment's context in words, for the document's format (`Document.format`); null when there is none. */
export function contextLabel(
  context: string | null | undefined,
  format: string | undefined,
): ContextLabel | null {
  if (!context) return null;
  switch (format) {
    case 'html':
      return html(context);
    case 'po':
      return po(context);
    case 'markdown':
      return { label: capital(context) };
    case 'docx':
      return docx(context);
    case 'android': {
      const item = /^(.*)\[(.*)\]$/.exec(context);
      if (item && /^(zero|one|two|few|many|other)$/.test(item[2]))
        return { label: `Plural “${item[2]}” of string`, detail: item[1] };
      if (item && /^\d+$/.test(item[2]))
        return { label: `Item ${Number(item[2]) + 1} of array`, detail: item[1] };
      return { label: 'String', detail: context };
    }
    case 'json':
    case 'yaml':
    case 'xliff':
      return { label: 'Key', detail: context };
    default:
      return { label: 'Context', detail: context };
  }
}
