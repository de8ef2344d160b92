// The official EN 16931 rules for UBL (../shared/vectors/en16931-ubl, compiled for SaxonJS):
// the fatal assertions a document fails. The stylesheet loads once per test process.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SaxonJS from 'saxon-js';

const SEF = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'vectors', 'en16931-ubl', 'EN16931-UBL-validation.sef.json');

let stylesheet: unknown = null;

export interface Failure { id: string; text: string }

export async function en16931Failures(xml: string): Promise<Failure[]> {
  stylesheet ??= JSON.parse(readFileSync(SEF, 'utf8'));
  const { principalResult } = await SaxonJS.transform({ stylesheetInternal: stylesheet, sourceText: xml, destination: 'serialized' }, 'async');
  const failures: Failure[] = [];
  const pattern = /<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g;
  for (const match of String(principalResult).matchAll(pattern)) {
    if (!/flag="fatal"/.test(match[1])) continue;
    const id = /id="([^"]*)"/.exec(match[1])?.[1] ?? '?';
    const text = /<svrl:text>([\s\S]*?)<\/svrl:text>/.exec(match[2])?.[1]?.trim() ?? '';
    failures.push({ id, text });
  }
  return failures;
}
