import { readFileSync } from 'node:fs';

/**
 * Checks what Regdesk sends against Slack's Block Kit limits, read from the reference file compiled
 * from Slack's docs (test/fixtures/block-kit/limits.json, sources in test/fixtures/README.md).
 */
interface LimitFile {
  surfaces: Record<string, { value: number | boolean }>;
  blocks: Record<string, { value: number }>;
  elements?: Record<string, { value: number }>;
  composition?: Record<string, { value: number }>;
}

const file = JSON.parse(
  readFileSync(new URL('../fixtures/block-kit/limits.json', import.meta.url), 'utf8'),
) as LimitFile;

function limit(section: keyof LimitFile, name: string, fallback: number): number {
  const group = file[section] as Record<string, { value: number | boolean }> | undefined;
  const value = group?.[name]?.value;
  return typeof value === 'number' ? value : fallback;
}

type Json = Record<string, unknown>;
const textOf = (value: unknown): string =>
  typeof value === 'object' && value !== null ? String((value as Json).text ?? '') : '';

export function blockKitViolations(payload: unknown, surface: 'message' | 'modal' | 'home'): string[] {
  const problems: string[] = [];
  const p = payload as Json;
  const blocks = (p.blocks ?? []) as Json[];
  const maxBlocks = limit('surfaces', `${surface}.blocks.max`, surface === 'message' ? 50 : 100);
  if (blocks.length > maxBlocks) problems.push(`${surface}: ${blocks.length} blocks > ${maxBlocks}`);
  if (
    surface === 'message' &&
    typeof p.text === 'string' &&
    p.text.length > limit('surfaces', 'message.text.truncated_after_chars', 40_000)
  ) {
    problems.push('message text too long');
  }
  if (surface === 'modal') {
    for (const key of ['title', 'submit', 'close']) {
      const max = limit('surfaces', `modal.${key}.text.max`, 24);
      if (textOf(p[key]).length > max) problems.push(`modal ${key} longer than ${max}`);
    }
    if (blocks.some((b) => b.type === 'input') && p.submit === undefined)
      problems.push('modal with input blocks has no submit');
    if (
      typeof p.private_metadata === 'string' &&
      p.private_metadata.length > limit('surfaces', 'view.private_metadata.max', 3000)
    ) {
      problems.push('private_metadata too long');
    }
  }
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    const at = `blocks[${i}] (${String(block.type)})`;
    if (typeof block.block_id === 'string') {
      if (block.block_id.length > limit('blocks', 'any.block_id.max', 255))
        problems.push(`${at}: block_id too long`);
      if (blockIds.has(block.block_id)) problems.push(`${at}: duplicate block_id`);
      blockIds.add(block.block_id);
    }
    if (block.type === 'section') {
      const text = textOf(block.text);
      const fields = (block.fields ?? []) as Json[];
      if (
        block.text !== undefined &&
        (text.length < 1 || text.length > limit('blocks', 'section.text.max', 3000))
      ) {
        problems.push(`${at}: section text length ${text.length}`);
      }
      if (fields.length > limit('blocks', 'section.fields.max_items', 10))
        problems.push(`${at}: too many fields`);
      for (const field of fields) {
        if (textOf(field).length > limit('blocks', 'section.fields.item_text.max', 2000))
          problems.push(`${at}: field too long`);
      }
    }
    if (block.type === 'header' && textOf(block.text).length > limit('blocks', 'header.text.max', 150)) {
      problems.push(`${at}: header longer than 150`);
    }
    if (
      block.type === 'context' &&
      ((block.elements ?? []) as Json[]).length > limit('blocks', 'context.elements.max', 10)
    ) {
      problems.push(`${at}: too many context elements`);
    }
    if (block.type === 'actions') {
      const elements = (block.elements ?? []) as Json[];
      if (elements.length > limit('blocks', 'actions.elements.max', 25))
        problems.push(`${at}: too many elements`);
      for (const element of elements) {
        if (element.type === 'button') {
          if (textOf(element.text).length > 75) problems.push(`${at}: button text longer than 75`);
          // Block Kit: a button's accessibility_label is 1–75 characters.
          const label = element.accessibility_label;
          if (label !== undefined && (typeof label !== 'string' || label.length < 1 || label.length > 75))
            problems.push(`${at}: accessibility_label not 1–75 characters`);
          if (String(element.value ?? '').length > 2000)
            problems.push(`${at}: button value longer than 2000`);
          if (String(element.action_id ?? '').length > 255) problems.push(`${at}: action_id longer than 255`);
          const confirm = element.confirm as Json | undefined;
          if (
            confirm !== undefined &&
            (textOf(confirm.title).length > 100 || textOf(confirm.text).length > 300)
          ) {
            problems.push(`${at}: confirm dialog text too long`);
          }
        }
      }
    }
    if (block.type === 'input' && textOf(block.label).length > 2000) problems.push(`${at}: label too long`);
  });
  return problems;
}

/**
 * Buttons a person meets many times over (down a list, across messages) must say what they act on to
 * a screen reader: each of these action ids needs an `accessibility_label` naming `target`.
 */
export function assertLabelledButtons(payload: unknown, target: string): void {
  const buttons: Json[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const json = node as Json;
      if (json.type === 'button') buttons.push(json);
      Object.values(json).forEach(visit);
    }
  };
  visit(payload);
  if (buttons.length === 0) throw new Error('no buttons to check');
  const unlabelled = buttons.filter(
    (button) =>
      typeof button.accessibility_label !== 'string' || !button.accessibility_label.includes(target),
  );
  if (unlabelled.length > 0) {
    throw new Error(
      `buttons without a label naming ${target}: ${unlabelled.map((b) => String(b.action_id)).join(', ')}`,
    );
  }
}

export function assertWithinBlockKitLimits(payload: unknown, surface: 'message' | 'modal' | 'home'): void {
  const problems = blockKitViolations(payload, surface);
  if (problems.length > 0) throw new Error(`Block Kit limits broken:\n${problems.join('\n')}`);
}
